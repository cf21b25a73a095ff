extension Array {
    /// The array in consecutive slices of at most `size` elements: IN lists kept short.
    func slices(of size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min(count, $0 + size)] }
    }
}
