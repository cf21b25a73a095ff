/// How the store keeps who a user is: the id the sender gave, as given; where it gave none, its
/// e-mail, user name or IP address only as a stable hash (`email:…`, `username:…`, `ip:…`), since
/// the store needs to tell users apart, not to show who they are. `user:` in a query finds a
/// user by any of those, as the SDK sent them, by hashing what it is given the same way.
public enum UserIdentity {
    /// The kinds a user is kept by when the sender gave no id, in the order they are chosen.
    public static let hashedKinds = ["email", "username", "ip"]

    /// A value of `kind` as the store keeps it: `email:` and its hash's 16 hex digits.
    public static func hashed(_ kind: String, _ value: String) -> String {
        kind + ":" + StableHash.hex(value)
    }

    /// Every stored form a user typed as `text` may have: the text itself (an id), and each hashed
    /// kind of it, as typed and in lower case (an e-mail address's case is not the user's).
    public static func storedForms(of text: String) -> [String] {
        var forms = [text]
        for value in Set([text, text.lowercased()]).sorted() {
            forms += hashedKinds.map { hashed($0, value) }
        }
        var seen = Set<String>()
        return forms.filter { seen.insert($0).inserted }
    }
}
