import TriageModel

/// `git blame --porcelain` read: the commit that last changed the line, with its author, date and subject.
public enum Blame {
    /// The first line's commit from porcelain output; nil where it names none.
    public static func parse(_ porcelain: String) -> CodeCommit? {
        var hash: String?
        var author = "", email: String?, time: Int64?, subject = ""
        for line in porcelain.split(separator: "\n", omittingEmptySubsequences: false) {
            if hash == nil {
                let first = line.split(separator: " ").first.map(String.init) ?? ""
                guard first.count >= 40, first.allSatisfy(\.isHexDigit) else { return nil }
                hash = first
                continue
            }
            if line.hasPrefix("\t") { break }
            if line.hasPrefix("author ") {
                author = String(line.dropFirst(7))
            } else if line.hasPrefix("author-mail ") {
                let mail = line.dropFirst(12).trimmingPrefix("<")
                email = String(mail.hasSuffix(">") ? mail.dropLast() : mail)
                if email?.isEmpty == true { email = nil }
            } else if line.hasPrefix("author-time ") {
                time = Int64(line.dropFirst(12))
            } else if line.hasPrefix("summary ") {
                subject = String(line.dropFirst(8))
            }
        }
        guard let hash, let time else { return nil }
        return CodeCommit(hash: hash, author: author, email: email, date: Timestamp(millis: time * 1000), subject: subject)
    }
}
