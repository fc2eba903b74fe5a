/// The driver's transport sync (JACK's sync callback): a backing track that follows the
/// transport must be read ahead from the transport's new frame before the transport may roll.
extension CycleState {
    /// True when the driver should ask `transportReady` before its transport rolls (a backing
    /// track follows the transport). Read once, when the driver starts. - Realtime: safe.
    public var followsTransport: Bool { backing?.pointee.followsTransport ?? false }

    /// True once the cycle is ready to roll from transport frame `frame`: the backing track has
    /// been moved there (`BackingSource.sync`), or nothing follows the transport.
    /// - Realtime: safe; the driver's process thread (JACK calls its sync callback there).
    @_noLocks
    public func transportReady(atFrame frame: Int) -> Bool {
        guard let backing, backing.pointee.followsTransport else { return true }
        return backing.pointee.sync(toFrame: frame)
    }
}
