/// Where a line of a file at one commit stands in the working tree, from `git diff -U0 COMMIT -- FILE`:
/// each hunk above it moves it by the lines it added less those it removed; a line inside a hunk
/// was changed, and stands where the hunk's new lines start.
public enum LineShift {
    /// The line in the working tree, and whether it was changed since.
    public static func map(_ line: Int, diff: String) -> (line: Int, changed: Bool) {
        var offset = 0
        for header in diff.split(separator: "\n") where header.hasPrefix("@@ ") {
            guard let (oldStart, oldCount, newStart, newCount) = hunk(header) else { continue }
            if oldCount == 0 {
                // Lines added after old line `oldStart`.
                if oldStart < line { offset += newCount } else { break }
                continue
            }
            let oldEnd = oldStart + oldCount - 1
            if oldEnd < line {
                offset += newCount - oldCount
            } else if oldStart <= line {
                return (max(1, newCount == 0 ? newStart : newStart + min(line - oldStart, newCount - 1)), true)
            } else {
                break
            }
        }
        return (max(1, line + offset), false)
    }

    /// `@@ -a[,b] +c[,d] @@`: the old start and count, the new start and count.
    static func hunk(_ header: Substring) -> (Int, Int, Int, Int)? {
        let parts = header.split(separator: " ")
        guard parts.count >= 3, parts[1].hasPrefix("-"), parts[2].hasPrefix("+"),
              let old = range(parts[1].dropFirst()), let new = range(parts[2].dropFirst()) else { return nil }
        return (old.0, old.1, new.0, new.1)
    }

    static func range(_ text: Substring) -> (Int, Int)? {
        let numbers = text.split(separator: ",", omittingEmptySubsequences: false)
        guard let start = numbers.first.flatMap({ Int($0) }) else { return nil }
        let count = numbers.count > 1 ? Int(numbers[1]) : 1
        return count.map { (start, $0) }
    }
}
