import Foundation

/// A JACK graph a test can run voicerack and its peers in: a private jackd (`JACKServer`) or a
/// private PipeWire through its JACK library (`PipeWireServer`), so one scenario runs on both and
/// their results can be compared.
protocol JACKGraph: AnyObject {
    /// The server name JACK clients give (`--server`, `jack_lsp -s`).
    var name: String { get }
    /// What runs the graph, for messages: `jackd` or `PipeWire`.
    var label: String { get }
    /// Starts a JACK client (`executable`) in this graph, with `environment` added.
    func launch(_ executable: String, _ arguments: [String], environment: [String: String?]) throws -> ChildProcess
    /// `jack_lsp -s NAME ARGS…`'s output.
    func lsp(_ arguments: [String]) throws -> String
    /// Connects two ports with jack_connect; returns its exit status.
    @discardableResult
    func connect(_ source: String, _ destination: String) throws -> Int32?
}

extension JACKGraph {
    func launch(_ executable: String, _ arguments: [String]) throws -> ChildProcess {
        try launch(executable, arguments, environment: [:])
    }
}

extension JACKServer: JACKGraph {
    var label: String { "jackd" }

    func launch(_ executable: String, _ arguments: [String], environment: [String: String?]) throws -> ChildProcess {
        try ChildProcess(executable, arguments, environment: Tools.environment.merging(environment) { $1 })
    }
}
