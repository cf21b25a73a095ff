import Presentation
import Testing
import TriageModel

/// One sparkline scaling, one version range, one percent and one status word for every output.
@Suite struct FormatTests {
    @Test func aSeriesOfOnesIsFullBlocks() {
        #expect(Sparkline.line([1, 1, 1], width: 14) == "███")
    }

    @Test func aCountIsItsShareOfTheHighestRoundedUp() {
        #expect(Sparkline.line([0, 1, 4, 7, 8], width: 14) == " ▁▄▇█")
        #expect(Sparkline.line([1, 100], width: 14) == "▁█")
    }

    @Test func longSeriesAreSummedIntoTheWidth() {
        #expect(Sparkline.resample([1, 2, 3, 4, 5, 6], to: 3) == [3, 7, 11])
        #expect(Sparkline.line([1, 2, 3, 4, 5, 6], width: 3) == "▃▆█")
    }

    @Test func asciiSparklinesUseTheRamp() {
        #expect(Sparkline.line([0, 1, 9], width: 5, unicode: false) == " .@")
    }

    @Test func versionRangesHaveOneArrow() {
        #expect(Format.versionRange("1.7", "1.13") == "1.7→1.13")
        #expect(Format.versionRange("1.7", "1.13", unicode: false) == "1.7->1.13")
        #expect(Format.versionRange("1.7", "1.7") == "1.7")
        #expect(Format.versionRange(nil, "1.9") == "1.9")
        #expect(Format.versionRange(nil, nil) == "-")
    }

    @Test func percentagesHaveOneDecimal() {
        #expect(Format.percent(42.857) == "42.9%")
        #expect(Format.percent(100) == "100.0%")
        #expect(Format.tenths(0.04) == "0.0")
        #expect(Format.tenths(-3.25) == "-3.3")
    }

    @Test func aMergedGroupCarriesPlusNAfterItsSignalsAndEachMemberItsOwnCounts() {
        let chain = ErrorChain(links: [ChainLink(domain: "NetworkError", short: "NE", code: 8, name: "timeout")])
        let member = IssueSummary(key: "NE8", chain: chain, status: .open, events: 1234, users: 5, complaints: 0,
                                  firstSeen: Timestamp(millis: 0), lastSeen: Timestamp(millis: 0), firstVersion: nil,
                                  lastVersion: nil, series: [1])
        var group = member
        group.signals = [.spike]
        #expect(Format.mergeBadge(group) == nil)
        group.members = [member, member]
        #expect(Format.statusWithSignals(group) == "open SPIKE +1")
        #expect(Format.memberLine(member) == "NE8  1,234 events  5 users  0 complaints")
    }

    @Test func theStatusWordCarriesTheSignalsButNotRegressedTwice() {
        let chain = ErrorChain(links: [ChainLink(domain: "NetworkError", short: "NE", code: 8, name: "timeout")])
        let issue = IssueSummary(key: "NE8", chain: chain, status: .regressed, events: 1, users: 1, complaints: 0,
                                 firstSeen: Timestamp(millis: 0), lastSeen: Timestamp(millis: 0), firstVersion: nil,
                                 lastVersion: nil, series: [1], signals: [.regressed, .spike, .new])
        #expect(Format.statusWithSignals(issue) == "regressed SPIKE NEW")
        #expect(Format.status(.resolved, short: true) == "rslv")
    }
}

/// Columns are fitted in terminal cells: wide characters take two, marks combine, controls show as codes.
@Suite struct CellFitTests {
    @Test func shortTextIsPaddedToTheWidth() {
        #expect(Format.fit("ab", 4) == "ab  ")
    }

    @Test func longTextEndsInAnEllipsisInsideTheWidth() {
        #expect(Format.fit("abcdefgh", 5) == "abcd…")
        #expect(Format.fit("abcdefgh", 5, unicode: false) == "abcd~")
    }

    @Test func wideCharactersCountTwoCells() {
        #expect(Format.fit("日本", 6) == "日本  ")
        #expect(Format.fit("日本語", 5) == "日本…")
        #expect(TextSanitizer.width(Format.fit("日本語", 4)) == 4)
    }

    @Test func combiningMarksTakeNoCellOfTheirOwn() {
        #expect(Format.fit("cafe\u{301}", 6) == "cafe\u{301}  ")
    }

    @Test func controlsAreShownAndCounted() {
        #expect(Format.fit("a\u{1B}b", 5) == "a^[b ")
    }

    @Test func rightAlignsByCells() {
        #expect(Format.right("日", 4) == "  日")
        #expect(Format.right("12345", 3) == "12345")
    }

    @Test func markdownCellsAreSanitisedAndEscaped() {
        #expect(MarkdownText.inline("a|b\u{1B}[1m*c*") == "a\\|b^\\[\\[1m\\*c\\*")
    }
}

/// Devices are named as people know them, with the identifier where there is room.
@Suite struct DeviceFormatTests {
    @Test func theNameAndTheIdentifierWhereThereIsRoom() {
        #expect(Format.device("iPhone14,5") == "iPhone 13 (iPhone14,5)")
        #expect(Format.device("iPhone14,5", width: 22) == "iPhone 13 (iPhone14,5)")
    }

    @Test func theNameAloneWhereThereIsNot() {
        #expect(Format.device("iPhone14,3", width: 24) == "iPhone 13 Pro Max")
    }

    @Test func anUnknownModelAsItIs() {
        #expect(Format.device("Pixel 8", width: 24) == "Pixel 8")
    }
}

/// The title keeps the root cause whole first, and is cut by cells.
@Suite struct TitleTests {
    static let chain = ErrorChain(links: [
        ChainLink(domain: "UserError", short: "US", code: 14, name: "connectionIssue"),
        ChainLink(domain: "NetworkError", short: "NE", code: 8, name: "timeout"),
    ])

    @Test func aTitleThatFitsIsWhole() {
        #expect(Format.fittedTitle(Self.chain, width: 40) == "connectionIssue … timeout")
        #expect(Format.title(Self.chain, unicode: false) == "connectionIssue ~ timeout")
    }

    @Test func theOuterNameGivesWayFirst() {
        #expect(Format.fittedTitle(Self.chain, width: 15) == "conn… … timeout")
    }

    @Test func wideOuterNamesAreCutByCells() {
        let chain = ErrorChain(links: [ChainLink(short: "US", code: 1, name: "接続できません"), ChainLink(short: "NE", code: 8, name: "timeout")])
        let fitted = Format.fittedTitle(chain, width: 16)
        #expect(fitted == "接続… … timeout")
        #expect(TextSanitizer.width(fitted) <= 16)
    }

    @Test func aLongRootKeepsFourCellsOfTheOuterName() {
        let chain = ErrorChain(links: [ChainLink(short: "US", code: 1, name: "connectionIssue"),
                                       ChainLink(short: "NS", code: -1009, name: "notConnectedToInternet")])
        #expect(Format.fittedTitle(chain, width: 20) == "con… … notConnected…")
    }
}

/// Keys shown together are cut to their ends, but never so that two read the same.
@Suite struct CompactKeysTests {
    @Test func aKeyAloneIsCutToItsOuterAndRootCodes() {
        #expect(Format.compactKeys(["US14-LO43-AP7-NE8", "IN500-GE1"]) == ["US14-LO43-AP7-NE8": "US14…NE8", "IN500-GE1": "IN500-GE1"])
    }

    @Test func keysWhoseEndsAgreeKeepMoreOfTheirMiddle() {
        let forms = Format.compactKeys(["US21-IN330-TA150-NSn1001", "US21-IN331-TA150-NSn1001", "US14-LO43-AP7-NE8"])
        #expect(forms["US21-IN330-TA150-NSn1001"] == "US21-IN330…NSn1001")
        #expect(forms["US21-IN331-TA150-NSn1001"] == "US21-IN331…NSn1001")
        #expect(forms["US14-LO43-AP7-NE8"] == "US14…NE8")
    }

    @Test func aKeyThatDiffersOnlyByALayerIsShownWhole() {
        let forms = Format.compactKeys(["US9-IN240-TA120-HT429", "US9-IN240-RE3-TA120-HT429"], unicode: false)
        #expect(forms["US9-IN240-TA120-HT429"] == "US9-IN240-TA120-HT429")
        #expect(forms["US9-IN240-RE3-TA120-HT429"] == "US9-IN240-RE3..HT429")
        #expect(Set(forms.values).count == 2)
    }
}

/// A long key in a narrow column: cut in the middle, its outermost and root links kept.
@Suite struct FittedKeyTests {
    @Test(arguments: [
        (29, "US9-WS32184-WM74654-AP12-NE29"), (22, "US9-WS32184-WM746…NE29"), (20, "US9-WS32184-WM7…NE29"),
        (17, "US9-WS32184…NE29"), (12, "US9-WS3…NE29"), (10, "US9…NE29"), (8, "US9…NE29"), (6, "US9-W…"),
    ])
    func aKeyIsCutInTheMiddle(_ width: Int, _ expected: String) {
        #expect(Format.fittedKey("US9-WS32184-WM74654-AP12-NE29", width: width) == expected)
        #expect(TextSanitizer.width(Format.fittedKey("US9-WS32184-WM74654-AP12-NE29", width: width)) <= width)
    }

    @Test func asciiCutsWithTwoDots() {
        #expect(Format.fittedKey("US9-WS32184-WM74654-AP12-NE29", width: 17, unicode: false) == "US9-WS32184..NE29")
    }

    @Test func keysToldApartAtOneWidthStayApartWhenWider() {
        let twins = ["AP63478-WR51601-ES56620", "AP63478-WR51687-ES56620"]
        #expect(Format.fittedKey(twins[0], width: 21) == Format.fittedKey(twins[1], width: 21))
        for width in 22...24 {
            #expect(Set(twins.map { Format.fittedKey($0, width: width) }).count == 2, "\(width)")
        }
    }
}

/// `rule add` and `rule list` as text.
@Suite struct GroupingRuleTextTests {
    static let chain = ErrorChain(links: [ChainLink(domain: "UserError", short: "US", code: 9, name: "actionFailed"),
                                          ChainLink(domain: "NetworkError", short: "NE", code: 29, name: "responseValidationFailed")])

    @Test func aPreviewNamesTheHeadTheJoiningAndTheLeft() {
        let preview = GroupingPreview(name: "us9", query: "outer:US9 root:NE29", issues: [
            .init(key: "US9-IN240-NE29", chain: Self.chain, events: 576, role: .head),
            .init(key: "US9-NE29", chain: Self.chain, events: 1308, role: .joins),
            .init(key: "US9-LO1-NE29", chain: Self.chain, events: 3, role: .inOtherGroup, otherHead: "US14-LO43-AP7-NE8"),
        ])
        #expect(GroupingRuleText.preview(preview, dryRun: true) == """
            rule us9 would take 2 issues, 1,884 events, under US9-IN240-NE29:
              head   US9-IN240-NE29    576 events  actionFailed … responseValidationFailed
              joins  US9-NE29        1,308 events  actionFailed … responseValidationFailed
            Left in other groups (errtriage unmerge KEY, then add the rule again, to let it take them):
              US9-LO1-NE29, in the group of US14-LO43-AP7-NE8

            """)
        #expect(GroupingRuleText.preview(GroupingPreview(name: "x", query: "root:NE1", issues: []), dryRun: false)
                == "rule x added: no issue matches yet; the first new issue that matches becomes its issue\n")
    }

    @Test func theListSaysEachRulesIssue() {
        let rules = [GroupingRule(number: 1, name: "us9", query: "outer:US9", headKey: "US9-NE29", by: "ana", at: Timestamp.parse("2026-11-20T10:00:00Z")!),
                     GroupingRule(number: 2, name: "later", query: "root:NE1", headKey: nil, by: "bob", at: Timestamp.parse("2026-11-21T10:00:00Z")!)]
        #expect(GroupingRuleText.list(rules) == """
            1  us9  →  US9-NE29  outer:US9  (ana, 2026-11-20)
            2  later  →  (no issue yet)  root:NE1  (bob, 2026-11-21)

            """)
    }
}

/// What `errtriage mark` prints.
@Suite struct MarkLineTests {
    @Test func aMarkSaysTheChangeTheVersionAndTheCondition() {
        #expect(Format.markLine(key: "US14-LO43", from: .open, to: .resolved, inVersion: "1.13", condition: nil, now: .resolved)
                == "US14-LO43: open → resolved in 1.13")
        #expect(Format.markLine(key: "US14", from: .open, to: .muted, inVersion: nil, condition: .events(100), now: .muted)
                == "US14: open → muted until 100 more events")
    }

    @Test func anIssueThatCameBackAtOnceSaysWhatItIsNow() {
        #expect(Format.markLine(key: "US14", from: .open, to: .resolved, inVersion: "1.0", condition: nil, now: .regressed)
                == "US14: open → resolved in 1.0; now regressed: events already stored say it came back (see errtriage show US14)")
    }
}
