import ArgumentParser
import Foundation
import VoiceWeb

/// `voicerack panel`: the web panel's lasting address and token.
///
/// - Realtime: never; main thread.
struct Panel: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the web panel's address, or rotate its token.",
        discussion: """
            The panel (`run --web [HOST:]PORT`) keeps its token in $XDG_CONFIG_HOME/voicerack/panel-token \
            (else ~/.config/voicerack/panel-token, mode 0600), made on first use and reused by every run, \
            so its address can be bookmarked. `rotate-token` replaces it: a running panel refuses the \
            old token from then on.
            """,
        subcommands: [URLCommand.self, RotateToken.self])

    struct URLCommand: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "url",
            abstract: "Print the panel's address with its token (the port the last panel listened on, or --web's).",
            discussion: "Exits 66 when no panel has run yet and no --web is given.")

        @Option(name: .long, help: "The panel's [HOST:]PORT, as given to run --web.")
        var web: String?

        func run() throws {
            let file = PanelTokenFile()
            let address: PanelAddress
            do {
                if let web {
                    address = try PanelAddress(parsing: web)
                } else if let last = PanelTokenFile.lastAddress(beside: file) {
                    address = last
                } else {
                    printError("voicerack panel url: no panel has run yet; give its port: --web PORT")
                    throw ExitCode(66)
                }
                let token = try file.token()
                print(PanelTokenFile.url(address, token: token))
            } catch let error as PanelError {
                printError("voicerack panel url: \(error.description)")
                throw ExitCode(73)
            }
        }
    }

    struct RotateToken: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "rotate-token",
            abstract: "Replace the panel's token; the old one stops working, in a running panel too.")

        func run() throws {
            let file = PanelTokenFile()
            do {
                try file.rotate()
            } catch {
                printError("voicerack panel rotate-token: \(error.description)")
                throw ExitCode(73)
            }
            print("new panel token written to \(file.path); `voicerack panel url` prints the address")
        }
    }
}
