import CodeCheckout
import Testing

/// CODEOWNERS as GitHub and GitLab read it: patterns, last match wins, GitLab's sections.
@Suite struct CodeOwnersTests {
    func owners(_ text: String, _ path: String) -> [String] {
        CodeOwners.parse(text, file: "CODEOWNERS").owners(of: path).owners
    }

    @Test func theLastMatchingPatternWins() {
        let text = """
            # the default
            *                 @shop/everyone
            *.py              @shop/python
            /billing/         @ana
            billing/amounts.py @ben @shop/billing   # the amounts
            """
        #expect(owners(text, "README.md") == ["@shop/everyone"])
        #expect(owners(text, "catalog/search.py") == ["@shop/python"])
        #expect(owners(text, "billing/refunds.py") == ["@ana"])
        #expect(owners(text, "billing/amounts.py") == ["@ben", "@shop/billing"])
        let rules = CodeOwners.parse(text, file: ".github/CODEOWNERS")
        #expect(rules.describe(rules.owners(of: "billing/amounts.py").rules) == ".github/CODEOWNERS:5 billing/amounts.py")
    }

    @Test func patternsReadAsGitHubDocumentsThem() {
        // A folder anywhere, anchored folders, direct files only, any depth, extensions.
        #expect(CodeOwners.matches("apps/", "apps/web/main.js"))
        #expect(CodeOwners.matches("apps/", "services/apps/main.js"))
        #expect(!CodeOwners.matches("apps/", "apps"))
        #expect(CodeOwners.matches("/build/logs/", "build/logs/today/x.log"))
        #expect(!CodeOwners.matches("/build/logs/", "src/build/logs/x.log"))
        #expect(CodeOwners.matches("docs/*", "docs/getting-started.md"))
        #expect(!CodeOwners.matches("docs/*", "docs/build-app/troubleshooting.md"))
        #expect(CodeOwners.matches("docs/**", "docs/build-app/troubleshooting.md"))
        #expect(CodeOwners.matches("**/logs", "deep/down/logs/x.log"))
        #expect(CodeOwners.matches("*.js", "a/b/c.js"))
        #expect(!CodeOwners.matches("*.js", "a/b/c.jsx"))
        #expect(CodeOwners.matches("/docs", "docs/a/b.md"))
        #expect(CodeOwners.matches("lib/shop/*.rb", "lib/shop/billing.rb"))
        #expect(!CodeOwners.matches("lib/shop/*.rb", "x/lib/shop/billing.rb"))
        #expect(CodeOwners.matches("src/**/test_*.py", "src/a/b/test_x.py"))
        #expect(CodeOwners.matches("src/**/test_*.py", "src/test_x.py"))
        #expect(CodeOwners.matches("file?.txt", "file1.txt") && !CodeOwners.matches("file?.txt", "file10.txt"))
        #expect(CodeOwners.matches("[ab]*.go", "b_test.go") && !CodeOwners.matches("[ab]*.go", "c.go"))
        #expect(CodeOwners.matches("*", "anything/at/all"))
    }

    @Test func aPatternWithoutOwnersLeavesTheFileUnowned() {
        let text = """
            * @everyone
            /vendor/
            """
        #expect(owners(text, "vendor/lib.go") == [])
        #expect(owners(text, "main.go") == ["@everyone"])
    }

    @Test func escapedSpacesAndHashes() {
        let text = """
            /my\\ docs/ @writer
            \\#notes.md @keeper
            """
        #expect(owners(text, "my docs/a.md") == ["@writer"])
        #expect(owners(text, "#notes.md") == ["@keeper"])
    }

    @Test func gitLabSectionsEachGiveTheirLastMatchAndAreJoined() {
        let text = """
            * @general-approvers

            [Documentation] @docs-team
            docs/
            README.md

            ^[Database][2] @database-team
            model/db/
            config/db/database-setup.md @docs-team

            [Billing]
            billing/ @ana
            billing/amounts.py @ben

            [documentation]
            *.md @tech-writers
            """
        #expect(owners(text, "model/db/users.rb") == ["@general-approvers", "@database-team"])
        #expect(owners(text, "config/db/database-setup.md") == ["@general-approvers", "@tech-writers", "@docs-team"])
        // Within a section the last match wins; sections are joined in the file's order.
        #expect(owners(text, "billing/amounts.py") == ["@general-approvers", "@ben"])
        // `[documentation]` is `[Documentation]` again: its later rule wins there.
        #expect(owners(text, "docs/guide.md") == ["@general-approvers", "@tech-writers"])
        #expect(owners(text, "docs/guide.txt") == ["@general-approvers", "@docs-team"])
        let parsed = CodeOwners.parse(text, file: ".gitlab/CODEOWNERS")
        #expect(parsed.describe(parsed.owners(of: "billing/amounts.py").rules) == ".gitlab/CODEOWNERS:1 *, .gitlab/CODEOWNERS:13 billing/amounts.py")
    }

    @Test func gitLabExclusionsLeaveAFileUnownedInTheirSection() {
        let text = """
            [Ruby] @ruby-team
            *.rb
            !/config/routes.rb
            """
        #expect(owners(text, "app/user.rb") == ["@ruby-team"])
        #expect(owners(text, "config/routes.rb") == [])
    }

    @Test func theLocationsAreGitHubsThenGitLabs() {
        #expect(CodeOwners.locations == [".github/CODEOWNERS", "CODEOWNERS", "docs/CODEOWNERS", ".gitlab/CODEOWNERS"])
    }
}
