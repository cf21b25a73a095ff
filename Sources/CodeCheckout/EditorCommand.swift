/// The command that opens a file at a line in the user's editor: `$VISUAL`, else `$EDITOR`, with
/// `+LINE FILE` (the convention vi, vim, nano, emacs, micro, helix and kakoune share), code's
/// `--goto FILE:LINE`, Sublime Text's and Zed's `FILE:LINE`. An editor named with arguments
/// (`code -w`, `emacsclient -t`) keeps them; one that holds shell syntax (`$HOME/bin/ed`, a
/// pipe) runs as git runs it, through `sh -c '… "$@"'` with the file as an argument, never in
/// the command's text.
public enum EditorCommand {
    /// Why no editor can be run.
    public static let noEditor = "No editor: set $VISUAL or $EDITOR (e.g. export EDITOR=vim)."

    /// The editor the environment names, and the variable that names it.
    public static func editor(environment: [String: String]) -> (command: String, variable: String)? {
        for variable in ["VISUAL", "EDITOR"] {
            if let value = environment[variable], !value.allSatisfy({ $0 == " " || $0 == "\t" }) { return (value, variable) }
        }
        return nil
    }

    /// The argument vector that opens `file` at `line` (nil: at its top) with `editor`.
    public static func arguments(editor: String, file: String, line: Int?) -> [String] {
        let fileArguments: [String]
        guard let words = words(editor), let program = words.first else {
            return ["/bin/sh", "-c", editor + " \"$@\"", editor] + openArguments(program: firstWord(editor), file: file, line: line)
        }
        fileArguments = openArguments(program: program, file: file, line: line)
        return words + fileArguments
    }

    /// How an editor is told the line.
    static func openArguments(program: String, file: String, line: Int?) -> [String] {
        // A file whose name starts with `-` or `+` must not read as an option.
        let safeFile = file.hasPrefix("-") || file.hasPrefix("+") ? "./" + file : file
        guard let line, line > 0 else { return [safeFile] }
        var name = Substring(program.split(separator: "/").last ?? Substring(program))
        if name.hasSuffix(".exe") { name = name.dropLast(4) }
        switch name {
        case "code", "code-insiders", "codium", "vscodium", "cursor", "windsurf": return ["--goto", "\(safeFile):\(line)"]
        case "subl", "sublime_text", "zed", "zeditor": return ["\(safeFile):\(line)"]
        default: return ["+\(line)", safeFile]
        }
    }

    /// The editor's words where it is plain words, quotes and backslashes; nil where it holds shell syntax.
    static func words(_ command: String) -> [String]? {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for c in command {
            if escaped {
                word.append(c)
                escaped = false
                continue
            }
            if let q = quote {
                if c == q {
                    quote = nil
                } else if c == "\\" && q == "\"" {
                    escaped = true
                } else {
                    if q == "\"" && (c == "$" || c == "`") { return nil }
                    word.append(c)
                }
                continue
            }
            switch c {
            case "\\": escaped = true; inWord = true
            case "'", "\"": quote = c; inWord = true
            case " ", "\t":
                if inWord { words.append(word) }
                word = ""
                inWord = false
            case "$", "`", "|", "&", ";", "<", ">", "(", ")", "*", "?", "[", "{", "~", "#", "\n":
                return nil
            default:
                word.append(c)
                inWord = true
            }
        }
        guard quote == nil, !escaped else { return nil }
        if inWord { words.append(word) }
        return words.isEmpty ? nil : words
    }

    static func firstWord(_ command: String) -> String {
        String(command.split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
    }
}
