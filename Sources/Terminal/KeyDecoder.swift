import CNcursesw
import DashboardCore

/// Turns what `get_wch` returns into dashboard keys.
enum KeyDecoder {
    /// A character read as text (`get_wch` returned OK); nil for codes the dashboard ignores.
    static func character(_ code: UInt32) -> Key? {
        switch code {
        case 27: return .escape
        case 9: return .tab
        case 10, 13: return .enter
        case 8, 127: return .backspace
        case 1...26:
            return .ctrl(Character(Unicode.Scalar(UInt8(code) + 96)))
        case 0..<32: return nil
        default:
            guard let scalar = Unicode.Scalar(code) else { return nil }
            return .char(Character(scalar))
        }
    }

    /// A function key (`get_wch` returned KEY_CODE_YES); nil for keys the dashboard ignores.
    static func functionKey(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_ENTER: return .enter
        case KEY_BACKSPACE: return .backspace
        case KEY_DC: return .delete
        case KEY_BTAB: return .backTab
        default:
            let f0 = errtriage_key_f0()
            if code > f0, code <= f0 + 63 { return .function(Int(code - f0)) }
            return nil
        }
    }
}
