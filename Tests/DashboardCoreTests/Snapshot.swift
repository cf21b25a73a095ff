import DashboardCore
import Foundation
import TestSupport
import Testing

/// Compares a screen, as text, with `Snapshots/NAME.txt` next to this file; `SNAPSHOT_RECORD=1` writes it instead.
func expectSnapshot(_ buffer: ScreenBuffer, _ name: String, filePath: String = #filePath,
                    sourceLocation: SourceLocation = #_sourceLocation) {
    let file = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        .appendingPathComponent("Snapshots").appendingPathComponent(name + ".txt")
    Snapshot.expect(snapshotText(buffer), matches: file, sourceLocation: sourceLocation)
}

/// The screen with a ruler of its size, each row between bars so that trailing blanks stay visible.
func snapshotText(_ buffer: ScreenBuffer) -> String {
    var text = "\(buffer.size.cols)x\(buffer.size.rows)\n"
    for line in buffer.lines { text += "|" + line + "|\n" }
    return text
}
