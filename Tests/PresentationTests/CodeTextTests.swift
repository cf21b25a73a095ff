import Presentation
import Testing
import TriageModel

/// What a checkout says, as show, event and ticket print it; every text from git made inert.
@Suite struct CodeTextTests {
    static let commit = CodeCommit(hash: "4f1c2d3e4f1c2d3e4f1c2d3e4f1c2d3e4f1c2d3e", author: "Ben \u{1B}[31mOkafor", email: "ben@shop.example",
                                   date: Timestamp.parse("2026-09-20T10:00:00Z")!, subject: "Retry the token\nonce")

    @Test func aSuspectInOneInertLine() {
        let line = CodeText.suspectLine(Self.commit)
        #expect(line.hasPrefix("4f1c2d3  2026-09-20  Ben "))
        #expect(!line.contains("\u{1B}") && !line.contains("\n"))
    }

    @Test func whereTheCodeWasReadOrWhyNot() {
        #expect(CodeText.checkoutLine(.unavailable(CodeSettings.noCheckout)) == CodeSettings.noCheckout)
        let facts = CodeFacts(checkout: "/src/shop", revision: CodeRevision(commit: Self.commit.hash, name: "HEAD", isRelease: false,
                                                                          note: "the event names no release: read at HEAD"))
        #expect(CodeText.checkoutLine(facts) == "Code: /src/shop at HEAD (4f1c2d3) (the event names no release: read at HEAD)")
    }

    @Test func aSitesLinesUnderItsLink() {
        let site = CodeSite(path: "lib/shop/service.rb", line: 30, suspect: Self.commit, owners: ["@shop/accounts", "@ana"],
                            ownersRule: "CODEOWNERS:2 /lib/shop/", problems: ["CODEOWNERS: took too long"])
        let text = CodeText.siteLines(site, place: FrameLocation(file: "/srv/shop/lib/shop/service.rb", line: 30, function: "show_login"), indent: "  ")
        #expect(text == """
              in the checkout: lib/shop/service.rb:30
              suspect commit: \(CodeText.suspectLine(Self.commit))
              owners: @shop/accounts @ana  (CODEOWNERS:2 /lib/shop/)
              CODEOWNERS: took too long

            """)
        // The same place as the frame's is not said twice.
        #expect(!CodeText.siteLines(site, place: FrameLocation(file: "lib/shop/service.rb", line: 30, function: nil), indent: "").contains("in the checkout"))
    }

    @Test func theJSONHoldsEverySiteAndTheSuggestion() {
        let facts = CodeFacts(checkout: "/src", revision: CodeRevision(commit: Self.commit.hash, name: "v2.1.0", isRelease: true),
                              sites: [CodeSite(path: "a.py", line: 3, via: "filename", suspect: Self.commit, owners: ["@ana"]), nil])
        let json = CodeText.json(facts).serialized
        #expect(json.contains(#""revision":{"name":"v2.1.0","commit":"4f1c2d3e4f1c2d3e4f1c2d3e4f1c2d3e4f1c2d3e","is_release":true,"note":null}"#), "\(json)")
        #expect(json.contains(#""sites":[{"file":"a.py","line":3,"via":"filename","suspect_commit":{"hash":"#), "\(json)")
        #expect(json.contains(#"null],"suggested_owners":["@ana"]"#), "\(json)")
    }

    @Test func anExcerptNumberedWithTheFramesLineMarked() {
        let excerpt = SourceExcerpt(firstLine: 9, lines: ["a", "\tb", "c"], line: 10, revision: "v1")
        #expect(CodeText.excerpt(excerpt, indent: "  ") == "     9  a\n  > 10      b\n    11  c\n")
        #expect(excerpt.around(radius: 0).lines == ["\tb"])
    }
}
