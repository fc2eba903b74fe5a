import Foundation

extension PanelTokenFile {
    /// The address file beside the token: where the last panel listened (`HOST:PORT`), for
    /// `voicerack panel url`. Not a secret, but written 0600 like its neighbour.
    var addressPath: String { (path as NSString).deletingLastPathComponent + "/panel-address" }

    /// Notes where a panel listens now. A failure only loses the hint: it is not reported.
    func noteAddress(_ address: PanelAddress, port: UInt16) {
        let host = address.host == "0.0.0.0" ? "127.0.0.1" : address.host
        let fd = open(addressPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return }
        let bytes = Array("\(host):\(port)\n".utf8)
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// Where the last panel listened, from the address file beside `file`; nil when none.
    public static func lastAddress(beside file: PanelTokenFile) -> PanelAddress? {
        guard let text = try? String(contentsOfFile: file.addressPath, encoding: .utf8) else { return nil }
        return try? PanelAddress(parsing: text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The address to open: `http://HOST:PORT/?token=…` (a wildcard bind as loopback).
    public static func url(_ address: PanelAddress, token: PanelToken) -> String {
        let host = address.host == "0.0.0.0" ? "127.0.0.1" : address.host
        return "http://\(host):\(address.port)/?token=\(token.text)"
    }
}
