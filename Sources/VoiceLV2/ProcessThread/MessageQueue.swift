import VoiceRT

/// A lock-free single-producer, single-consumer queue of byte messages up to `slotBytes` long:
/// the worker extension's requests (process thread → worker) and responses (worker → process).
///
/// Messages sit in preallocated slots; the slot indices travel through a `BlockPool`, filled ones
/// to the consumer and emptied ones back, so neither side waits or allocates.
///
/// - Realtime: `push`, `peek` and `release` are wait-free; `init` and `deallocate` are not.
struct MessageQueue {
    let slotBytes: Int
    private let storage: UnsafeMutableRawPointer
    private let sizes: UnsafeMutablePointer<UInt32>
    private let pool: BlockPool

    init(slots: Int, slotBytes: Int) {
        self.slotBytes = slotBytes
        storage = .allocate(byteCount: slots * slotBytes, alignment: 16)
        sizes = .allocate(capacity: slots)
        sizes.initialize(repeating: 0, count: slots)
        pool = BlockPool(count: slots)
    }

    /// Frees the queue once neither side uses it. - Realtime: never.
    func deallocate() {
        storage.deallocate()
        sizes.deallocate()
        pool.deallocate()
    }

    /// Copies `size` bytes in; false when the message is too long or no slot is free. Producer only.
    @_noLocks
    func push(_ size: UInt32, _ data: UnsafeRawPointer?) -> Bool {
        guard Int(size) <= slotBytes, let slot = pool.producer.take() else { return false }
        if let data, size > 0 {
            (storage + slot * slotBytes).copyMemory(from: data, byteCount: Int(size))
        }
        sizes[slot] = size
        pool.producer.publish(slot)
        return true
    }

    /// The oldest message's slot, size and bytes, or nil when empty; hand the slot back with
    /// `release` once read. Consumer only.
    @_noLocks
    func peek() -> (slot: Int, size: UInt32, bytes: UnsafeRawPointer)? {
        guard let slot = pool.consumer.next() else { return nil }
        return (slot, sizes[slot], UnsafeRawPointer(storage + slot * slotBytes))
    }

    /// Returns a slot taken by `peek`. Consumer only.
    @_noLocks
    func release(_ slot: Int) { pool.consumer.release(slot) }
}
