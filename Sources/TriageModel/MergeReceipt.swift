/// What the store did for one merge: the head, and each issue it moved with the group it was in
/// before (a member of a group the merge took along was under that group's head). Enough to undo it.
public struct MergeReceipt: Hashable, Sendable {
    public struct Move: Hashable, Sendable {
        public var key: String
        /// The head of the group it was a member of; nil where it stood alone or headed a group.
        public var formerHead: String?

        public init(key: String, formerHead: String?) {
            self.key = key
            self.formerHead = formerHead
        }
    }

    public var head: String
    /// In the order the merge moved them.
    public var moved: [Move]

    public init(head: String, moved: [Move]) {
        self.head = head
        self.moved = moved
    }
}
