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
