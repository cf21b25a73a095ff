// `errtriage-fuzz`: the fuzz targets as a program.
//
// Built by `make fuzz` with libFuzzer (-sanitize=fuzzer -D LIBFUZZER), libFuzzer supplies `main`
// and calls `LLVMFuzzerTestOneInput` with inputs it mutates under coverage; FUZZ_TARGET picks the
// target. Built plainly, `errtriage-fuzz TARGET FILE...` replays saved inputs, such as a crash
// libFuzzer wrote, through the same target.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import FuzzTargets

@_cdecl("LLVMFuzzerTestOneInput")
public func errtriageFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    FuzzTarget.selected.run(bytes)
    return 0
}

#if LIBFUZZER
/// libFuzzer's driver, for a custom `main`.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                         _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

/// SwiftPM links an executable's `main` to `<module>_main`; here that hands over to libFuzzer.
@_cdecl("errtriage_fuzz_main")
public func errtriageFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    _ = FuzzTarget.selected
    var count = argc
    var arguments = argv
    return LLVMFuzzerRunDriver(&count, &arguments, errtriageFuzzOneInput)
}
#else
@main
enum Replay {
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
        if arguments.count == 4, arguments[0] == "seed", let target = FuzzTarget(rawValue: arguments[1]) {
            // `seed TARGET FIXTURES DIR`: writes the target's seed inputs into libFuzzer's corpus folder.
            for (i, seed) in target.seeds(fixtures: arguments[2]).enumerated() {
                guard FuzzInput.write(seed, to: "\(arguments[3])/seed-\(i)") else {
                    FuzzInput.complain("errtriage-fuzz: cannot write into \(arguments[3])\n")
                    exit(2)
                }
            }
            return
        }
        guard arguments.count >= 2, let target = FuzzTarget(rawValue: arguments[0]) else {
            FuzzInput.complain("""
                usage: errtriage-fuzz TARGET FILE...              replay saved inputs
                       errtriage-fuzz seed TARGET FIXTURES DIR    write a target's seed corpus
                targets: \(names)

                """)
            exit(1)
        }
        for path in arguments.dropFirst() {
            guard let bytes = FuzzInput.read(path) else {
                FuzzInput.complain("errtriage-fuzz: cannot read \(path)\n")
                exit(2)
            }
            target.run(bytes)
            print("\(target.rawValue): \(path) (\(bytes.count) bytes) passes")
        }
    }
}
#endif
