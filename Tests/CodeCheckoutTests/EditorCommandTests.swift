import CodeCheckout
import Testing
import TriageModel

/// The editor's command line, the release's names and blame's porcelain.
@Suite struct EditorCommandTests {
    @Test func visualBeforeEditor() {
        #expect(EditorCommand.editor(environment: ["EDITOR": "nano", "VISUAL": "vim"])! == ("vim", "VISUAL"))
        #expect(EditorCommand.editor(environment: ["EDITOR": "nano", "VISUAL": " "])! == ("nano", "EDITOR"))
        #expect(EditorCommand.editor(environment: [:]) == nil)
    }

    @Test func plusLineFileForTheEditorsThatShareIt() {
        for editor in ["vi", "vim", "/usr/bin/nvim", "nano", "emacs", "micro", "hx", "helix"] {
            #expect(EditorCommand.arguments(editor: editor, file: "/src/shop/billing.py", line: 41) == [editor, "+41", "/src/shop/billing.py"])
        }
        #expect(EditorCommand.arguments(editor: "vim", file: "/src/a.py", line: nil) == ["vim", "/src/a.py"])
    }

    @Test func codesGotoAndAnEditorWithArguments() {
        #expect(EditorCommand.arguments(editor: "code", file: "/src/a.py", line: 7) == ["code", "--goto", "/src/a.py:7"])
        #expect(EditorCommand.arguments(editor: "code -w", file: "/src/a.py", line: 7) == ["code", "-w", "--goto", "/src/a.py:7"])
        #expect(EditorCommand.arguments(editor: "emacsclient -t -a ''", file: "/src/a.py", line: 7) == ["emacsclient", "-t", "-a", "", "+7", "/src/a.py"])
        #expect(EditorCommand.arguments(editor: "'/opt/My Editor/bin/vim' -p", file: "/s/a b.py", line: 2) == ["/opt/My Editor/bin/vim", "-p", "+2", "/s/a b.py"])
        #expect(EditorCommand.arguments(editor: "subl", file: "/s/a.py", line: 2) == ["subl", "/s/a.py:2"])
    }

    @Test func shellSyntaxRunsAsGitRunsItWithTheFileAsAnArgument() {
        let file = "/src/it's $(rm -rf ~); `x`.py"
        let argv = EditorCommand.arguments(editor: "$HOME/bin/ed --wait", file: file, line: 3)
        #expect(argv == ["/bin/sh", "-c", "$HOME/bin/ed --wait \"$@\"", "$HOME/bin/ed --wait", "+3", file])
        // Plain words never go through a shell, whatever the file is called.
        #expect(EditorCommand.arguments(editor: "vim", file: file, line: 3) == ["vim", "+3", file])
        #expect(EditorCommand.arguments(editor: "vim", file: "-rf", line: 3) == ["vim", "+3", "./-rf"])
    }

    @Test func releaseNames() {
        #expect(ReleaseRef.candidates(release: "shop@2.1.0", pattern: nil) == ["v2.1.0", "2.1.0", "shop@2.1.0"])
        #expect(ReleaseRef.candidates(release: "2.1.0", pattern: nil) == ["v2.1.0", "2.1.0"])
        #expect(ReleaseRef.candidates(release: "shop@2.1.0", pattern: "release-{version}") == ["release-2.1.0"])
        #expect(ReleaseRef.candidates(release: "shop@2.1.0", pattern: "{package}/{version}") == ["shop/2.1.0"])
        #expect(ReleaseRef.candidates(release: "--upload-pack=x", pattern: "{release}") == [])
    }

    @Test func blamesPorcelain() {
        let porcelain = """
            4f1c2d3e4f1c2d3e4f1c2d3e4f1c2d3e4f1c2d3e 41 41 1
            author Ben Okafor
            author-mail <ben@shop.example>
            author-time 1790000000
            author-tz +0200
            committer Ben Okafor
            committer-mail <ben@shop.example>
            committer-time 1790000000
            committer-tz +0200
            summary Parse amounts with the user's locale
            previous 1111111111111111111111111111111111111111 billing.py
            filename billing.py
            \t    return Decimal(text)
            """
        let commit = Blame.parse(porcelain)
        #expect(commit == CodeCommit(hash: "4f1c2d3e4f1c2d3e4f1c2d3e4f1c2d3e4f1c2d3e", author: "Ben Okafor", email: "ben@shop.example",
                                     date: Timestamp(millis: 1_790_000_000_000), subject: "Parse amounts with the user's locale"))
        #expect(commit?.shortHash == "4f1c2d3")
        #expect(Blame.parse("fatal: no such path") == nil)
    }
}

/// A line of the release's file as the working tree has it now.
@Suite struct LineShiftTests {
    static let diff = """
        diff --git a/billing.py b/billing.py
        --- a/billing.py
        +++ b/billing.py
        @@ -2,0 +3,2 @@ import x
        +import y
        +import z
        @@ -10 +12 @@ def parse(text):
        -    return Decimal(text)
        +    return Decimal(text.strip())
        @@ -20,3 +22,0 @@
        -a
        -b
        -c
        """

    @Test func linesMoveByTheHunksAboveThem() {
        #expect(LineShift.map(1, diff: Self.diff) == (1, false))
        #expect(LineShift.map(2, diff: Self.diff) == (2, false))
        #expect(LineShift.map(3, diff: Self.diff) == (5, false))
        #expect(LineShift.map(10, diff: Self.diff) == (12, true))
        #expect(LineShift.map(15, diff: Self.diff) == (17, false))
        #expect(LineShift.map(21, diff: Self.diff) == (22, true))
        #expect(LineShift.map(30, diff: Self.diff) == (29, false))
        #expect(LineShift.map(7, diff: "") == (7, false))
    }
}
