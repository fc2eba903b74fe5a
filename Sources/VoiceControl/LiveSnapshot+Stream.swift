extension LiveSnapshot {
    /// The Icecast stream's figures for surfaces that draw them as a card (the panel), beside
    /// the status line's text in `stream`.
    ///
    /// - Realtime: never; any thread (a plain value).
    public struct StreamFigures: Sendable, Equatable {
        /// One word: `off` (configured, not running), `connecting`, `live`, `reconnecting`,
        /// `stopped` (ended on an error; `reason` says which).
        public var state: String
        /// Audio seconds that went on air, and that never did (dropped while not connected).
        public var secondsOnAir: Double
        public var secondsLost: Double
        /// Connections made after the first.
        public var reconnects: Int
        /// Why it is reconnecting or stopped, in words ("" otherwise); never holds credentials.
        public var reason: String

        public init(
            state: String, secondsOnAir: Double = 0, secondsLost: Double = 0, reconnects: Int = 0, reason: String = ""
        ) {
            self.state = state
            self.secondsOnAir = secondsOnAir
            self.secondsLost = secondsLost
            self.reconnects = reconnects
            self.reason = reason
        }
    }
}
