import Foundation
import Synchronization
import VoiceWeb

/// The session's side of the web panel: the latest figures and setup for the server's tasks to
/// read, and an inbox of the page's requests that the main loop drains and answers.
///
/// Nothing here touches the engine: the main thread publishes (`publish`) and runs the requests
/// (`drain`), the server's tasks only copy values and wait for answers.
///
/// - Realtime: never; `publish` and `drain` on the main thread, the rest on any thread.
final class LivePanel: PanelBackend {
    private struct Pending {
        let request: PanelRequest
        let answer: CheckedContinuation<PanelReply, Never>
    }

    private let figures = Mutex(PanelMeters())
    private let current: Mutex<PanelSetup>
    private let inbox = Mutex<[Pending]>([])
    /// Requests waiting at most; more are refused at once (a page cannot queue up work).
    static let maximumPending = 16

    init(setup: PanelSetup) { current = Mutex(setup) }

    func meters() -> PanelMeters { figures.withLock { $0 } }
    func setup() -> PanelSetup { current.withLock { $0 } }

    func perform(_ request: PanelRequest) async -> PanelReply {
        await withCheckedContinuation { answer in
            let queued = inbox.withLock { pending in
                guard pending.count < Self.maximumPending else { return false }
                pending.append(Pending(request: request, answer: answer))
                return true
            }
            if !queued { answer.resume(returning: PanelReply(ok: false, lines: ["busy: too many requests waiting"])) }
        }
    }

    /// Makes `meters` and `setup` what the pages get next. - Realtime: never; main thread.
    func publish(meters: PanelMeters, setup: PanelSetup?) {
        figures.withLock { $0 = meters }
        if let setup { current.withLock { $0 = setup } }
    }

    /// Runs the waiting requests with `handle`, in order, and answers them. - Main thread.
    func drain(_ handle: (PanelRequest) -> PanelReply) {
        let taken = inbox.withLock { pending in
            defer { pending = [] }
            return pending
        }
        for item in taken { item.answer.resume(returning: handle(item.request)) }
    }
}
