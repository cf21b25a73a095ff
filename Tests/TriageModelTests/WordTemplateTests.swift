import PropertyBased
import Testing
@testable import TriageModel

/// Which words of the messages met at one place vary: a message joins a template as Drain joins
/// a log line to a cluster, the words that differ become `<value>`, and the code is the template's
/// from its first message on, whatever the data and whichever message came first.
@Suite struct WordTemplateTests {
    static func learn(_ messages: [String]) -> [WordTemplate] {
        var templates: [WordTemplate] = []
        for message in messages {
            let tokens = WordTemplate.tokens(message)
            if let i = templates.indices.first(where: { templates[$0].similarity(tokens) != nil }) {
                templates[i].tokens = templates[i].merged(with: tokens)
            } else {
                templates.append(WordTemplate(tokens: tokens, code: WordTemplate.code(place: "p", tokens: tokens)))
            }
        }
        return templates
    }

    @Test func aQuotedValueAndAListAreOneTokenEach() {
        #expect(WordTemplate.tokens("no setting 'font size' for ann, bob, cy today") == ["no", "setting", "'font size'", "for", "ann, bob, cy", "today"])
        #expect(WordTemplate.tokens("missing fields name") == ["missing", "fields", "name"])
    }

    @Test func aNewCouponCodeJoinsTheTemplateOfTheOnesBefore() {
        let templates = Self.learn(["load coupon SPRING<n>", "load coupon WELCOME", "load coupon vip"])
        #expect(templates.count == 1)
        #expect(templates.first?.name == "load coupon <value>")
    }

    @Test func theFirstTwoWordsTellFailuresApart() {
        #expect(Self.learn(["upload avatar <n>", "delete avatar <n>"]).count == 2)
        #expect(Self.learn(["load coupon <id>", "save coupon <id>"]).count == 2)
        #expect(Self.learn(["invalid token", "invalid input"]).count == 2)
    }

    @Test func aValueSecondJoinsWhereEverythingElseIsTheSame() {
        let coupons = Self.learn(["coupon SPRING rejected at checkout", "coupon vip rejected at checkout", "coupon summer rejected at checkout"])
        #expect(coupons.map(\.name) == ["coupon <value> rejected at checkout"])
        // What happened, second, tells two failures apart even where the rest is the same.
        #expect(Self.learn(["payment failed for card", "payment declined for card"]).count == 2)
        #expect(Self.learn(["session expired for u<n>", "session closed for u<n>"]).count == 2)
        #expect(Self.learn(["coupon SUMMER rejected at checkout", "coupon vip rejected at login"]).count == 2)
    }

    @Test func aQuotedValueThatVariesStaysQuoted() {
        #expect(Self.learn(["KeyError: 'theme_dark'", "KeyError: 'locale'"]).first?.name == "KeyError: '<value>'")
        // What stays the same where it was raised stays in the name.
        let same = Self.learn(["Cannot read properties of undefined (reading 'total')", "Cannot read properties of undefined (reading 'total')"])
        #expect(same.first?.name == "Cannot read properties of undefined (reading 'total')")
    }

    @Test func messagesOfOtherLengthsKeepTheWordsTheyShareAtEachEnd() {
        let template = WordTemplate(tokens: WordTemplate.tokens("name Bobby Tables is not allowed"), code: 1)
        #expect(WordTemplate.name(template.merged(with: WordTemplate.tokens("name x is not allowed"))) == "name <value> is not allowed")
    }

    /// The name is the same whichever message came first, and the code does not depend on the data.
    @Test func theNameAndTheCodeAreTheSameInAnyOrder() async {
        let code = Gen<Int>.value(in: 0...3).map { n -> String in ["SPRING24", "WELCOME", "vip", "X7K2Q9", "summer"][n] }
        await propertyCheck(count: 200, input: code.array(of: 3...6)) { codes in
            let messages = codes.map { "load coupon \(MessageTemplate.mask($0)) for tenant acme" }
            let forward = Self.learn(messages), backward = Self.learn(messages.reversed())
            #expect(forward.count == 1 && backward.count == 1)
            #expect(forward.first?.name == backward.first?.name)
            #expect(forward.first?.code == backward.first?.code)
        }
    }

    @Test func aCodeIsFiveDigitsAndOfItsPlace() {
        let tokens = WordTemplate.tokens("load coupon SPRING")
        let a = WordTemplate.code(place: "*fmt.wrapError", tokens: tokens), b = WordTemplate.code(place: "*errors.errorString", tokens: tokens)
        #expect(a != b && MessageTemplate.derivedRange.contains(a))
        #expect(a == WordTemplate.code(place: "*fmt.wrapError", tokens: WordTemplate.tokens("load coupon WELCOME")))
    }
}
