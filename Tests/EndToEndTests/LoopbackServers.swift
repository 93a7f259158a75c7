import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Debian's `busybox httpd` serving a directory on a free loopback port,
/// for as long as the value lives: a real static host (ranges, 404s).
final class BusyboxHTTPServer {
  /// Where busybox is, if it is installed (`make deps` installs it).
  static let executable: String? = ["/usr/bin/busybox", "/bin/busybox", "/usr/local/bin/busybox"]
    .first { FileManager.default.isExecutableFile(atPath: $0) }
  static var isAvailable: Bool { executable != nil }

  let process = Process()
  let port: UInt16
  var url: String { "http://127.0.0.1:\(port)/" }

  init(serving directory: String) throws {
    let executable = try Self.executable ?? { throw ServerError("busybox is not installed") }()
    port = try LoopbackPort.free()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["httpd", "-f", "-p", "127.0.0.1:\(port)", "-h", directory]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    try LoopbackPort.waitUntilAccepting(port)
  }

  deinit {
    // SIGKILL: a process spawned from a test's thread inherits its signal
    // mask, in which dispatch blocks SIGTERM.
    kill(process.processIdentifier, SIGKILL)
    process.waitUntilExit()
  }
}

/// A tiny HTTP/1.1 file server of the tests' own, on a loopback port, that
/// can cut a transfer short: for each path in `drops`, its first response
/// announces the whole file and sends only that many bytes, then closes
/// the connection (with the first of them changed when the path is in
/// `corrupts`: a transfer both corrupted and cut short). It answers
/// `Range: bytes=N-` with 206 unless `supportsRanges` is false (then 200
/// and the whole file), redirects a path under each prefix of `redirects`
/// (`302`, `Location` with the prefix replaced), and logs every request
/// with its `Range` and `Authorization` headers. Each connection serves
/// one request; the server stops when the value goes away.
final class DroppingHTTPServer: @unchecked Sendable {
  let directory: String
  let port: UInt16
  var url: String { "http://127.0.0.1:\(port)/" }

  private let lock = NSLock()
  private var drops: [String: Int]
  private var rangesSupported: Bool
  /// Answers a range request with the whole file as a 206 from byte 0.
  private let rangesFromStart: Bool
  private let redirects: [String: String]
  private let corrupts: Set<String>
  private var log: [(path: String, range: String?, authorization: String?)] = []
  private let listener: Int32
  private let done = DispatchSemaphore(value: 0)

  /// - Parameters:
  ///   - drops: Paths (relative to `directory`) whose first transfer stops after so many bytes.
  ///   - rangesFromStart: Answers each range request with the whole file
  ///     as a `206` from byte 0 (what some servers do).
  init(
    serving directory: String, drops: [String: Int], supportsRanges: Bool = true, rangesFromStart: Bool = false,
    redirects: [String: String] = [:], corrupts: Set<String> = []
  ) throws {
    self.directory = directory
    self.drops = drops
    self.corrupts = corrupts
    self.redirects = redirects
    rangesSupported = supportsRanges
    self.rangesFromStart = rangesFromStart
    (listener, port) = try LoopbackPort.listen()
    let thread = Thread { [unowned self] in self.acceptLoop() }
    thread.start()
  }

  deinit {
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    done.wait()
  }

  /// Every request so far: its path and `Range` header.
  var requests: [(path: String, range: String?)] { lock.withLock { log.map { ($0.path, $0.range) } } }

  /// The `Authorization` header of every request so far (nil: none).
  var authorizations: [String?] { lock.withLock { log.map(\.authorization) } }

  var supportsRanges: Bool {
    get { lock.withLock { rangesSupported } }
    set { lock.withLock { rangesSupported = newValue } }
  }

  private func acceptLoop() {
    defer { done.signal() }
    while true {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else {
        if errno == EINTR { continue }
        return
      }
      serve(connection)
      close(connection)
    }
  }

  private func serve(_ connection: Int32) {
    var request: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !request.containsHeaderEnd, request.count < 65536 {
      let count = read(connection, &buffer, buffer.count)
      guard count > 0 else { return }
      request.append(contentsOf: buffer[0..<count])
    }
    let lines = String(decoding: request, as: UTF8.self).components(separatedBy: "\r\n")
    let parts = lines.first?.split(separator: " ") ?? []
    guard parts.count >= 2 else { return }
    let path = String(parts[1].drop { $0 == "/" })
    func header(_ name: String) -> String? {
      lines.first { $0.lowercased().hasPrefix(name + ":") }
        .map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
    }
    let range = header("range")
    let (drop, ranges) = lock.withLock { () -> (Int?, Bool) in
      log.append((path, range, header("authorization")))
      return (drops.removeValue(forKey: path), rangesSupported)
    }
    if let (prefix, target) = redirects.first(where: { path.hasPrefix($0.key) }) {
      let location = "/" + target + path.dropFirst(prefix.count)
      send(connection, "HTTP/1.1 302 Found\r\nLocation: \(location)\r\nContent-Length: 5\r\nConnection: close\r\n\r\nmoved")
      return
    }
    guard let body = FileManager.default.contents(atPath: directory + "/" + path) else {
      send(connection, "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
      return
    }
    var start = 0
    var head = "HTTP/1.1 200 OK\r\n"
    if ranges, let range, range.hasPrefix("bytes="), range.hasSuffix("-"),
      let first = Int(range.dropFirst("bytes=".count).dropLast())
    {
      guard first < body.count else {
        send(connection, "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */\(body.count)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        return
      }
      start = rangesFromStart ? 0 : first
      head = "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes \(start)-\(body.count - 1)/\(body.count)\r\n"
    }
    send(connection, head + "Content-Length: \(body.count - start)\r\nConnection: close\r\n\r\n")
    let end = drop.map { min(start + $0, body.count) } ?? body.count
    var sent = body.subdata(in: start..<end)
    if drop != nil, corrupts.contains(path), !sent.isEmpty { sent[sent.startIndex] ^= 0xFF }
    sent.withUnsafeBytes { bytes in
      guard let base = bytes.baseAddress else { return }
      var sent = 0
      while sent < bytes.count {
        let count = write(connection, base + sent, bytes.count - sent)
        if count <= 0 { return }
        sent += count
      }
    }
  }

  private func send(_ connection: Int32, _ text: String) {
    _ = Array(text.utf8).withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
  }
}

/// A loopback HTTP/1.1 server that is slow on purpose, each connection on
/// its own thread: a path in `drips` gets its whole response (status line
/// and headers included) at so many bytes a second, as a host that drips
/// them; a path in `endless` gets a `200` without a length and bytes
/// without end, as fast as they go; any other file is sent at once (404
/// when missing). It logs the paths asked for; connections end when the
/// value goes away.
final class SlowHTTPServer: @unchecked Sendable {
  let directory: String
  let port: UInt16
  var url: String { "http://127.0.0.1:\(port)/" }

  private let drips: [String: Int]
  private let endless: Set<String>
  private let lock = NSLock()
  private var log: [String] = []
  private var isStopped = false
  private let listener: Int32
  private let done = DispatchSemaphore(value: 0)
  private let connections = DispatchGroup()

  init(serving directory: String, drips: [String: Int] = [:], endless: Set<String> = []) throws {
    self.directory = directory
    self.drips = drips
    self.endless = endless
    (listener, port) = try LoopbackPort.listen()
    let thread = Thread { [unowned self] in self.acceptLoop() }
    thread.start()
  }

  deinit {
    lock.withLock { isStopped = true }
    shutdown(listener, Int32(SHUT_RDWR))
    close(listener)
    done.wait()
    connections.wait()
  }

  /// Every path asked for so far.
  var requests: [String] { lock.withLock { log } }

  private var stopped: Bool { lock.withLock { isStopped } }

  private func acceptLoop() {
    defer { done.signal() }
    while true {
      let connection = accept(listener, nil, nil)
      guard connection >= 0 else {
        if errno == EINTR { continue }
        return
      }
      connections.enter()
      Thread.detachNewThread { [self] in
        serve(connection)
        close(connection)
        connections.leave()
      }
    }
  }

  private func serve(_ connection: Int32) {
    var request: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !request.containsHeaderEnd, request.count < 65536 {
      let count = read(connection, &buffer, buffer.count)
      guard count > 0 else { return }
      request.append(contentsOf: buffer[0..<count])
    }
    let line = String(decoding: request, as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
    let parts = line.split(separator: " ")
    guard parts.count >= 2 else { return }
    let path = String(parts[1].drop { $0 == "/" })
    lock.withLock { log.append(path) }
    if endless.contains(path) {
      guard send(connection, Array("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\n".utf8)) else { return }
      let chunk = [UInt8](repeating: 0x7B, count: 1 << 16)
      while !stopped, send(connection, chunk) {}
      return
    }
    guard let body = FileManager.default.contents(atPath: directory + "/" + path) else {
      _ = send(connection, Array("HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
      return
    }
    let response = Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n".utf8) + Array(body)
    guard let rate = drips[path] else {
      _ = send(connection, response)
      return
    }
    for byte in response {
      usleep(useconds_t(1_000_000 / max(1, rate)))
      guard !stopped, send(connection, [byte]) else { return }
    }
  }

  /// Sends every byte; false once the client is gone (no SIGPIPE).
  private func send(_ connection: Int32, _ bytes: [UInt8]) -> Bool {
    var sent = 0
    while sent < bytes.count {
      let count = bytes[sent...].withUnsafeBytes { Glibc.send(connection, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if count <= 0 { return false }
      sent += count
    }
    return true
  }
}

extension Array where Element == UInt8 {
  fileprivate var containsHeaderEnd: Bool {
    count >= 4 && (0...(count - 4)).contains { self[$0] == 13 && self[$0 + 1] == 10 && self[$0 + 2] == 13 && self[$0 + 3] == 10 }
  }
}

/// Loopback sockets for the test servers.
enum LoopbackPort {
  /// A listening socket on 127.0.0.1 and its port.
  static func listen() throws -> (Int32, UInt16) {
    let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard socket >= 0 else { throw ServerError("socket: \(String(cString: strerror(errno)))") }
    var yes: Int32 = 1
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, Glibc.listen(socket, 16) == 0 else {
      close(socket)
      throw ServerError("bind: \(String(cString: strerror(errno)))")
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    return (socket, UInt16(bigEndian: address.sin_port))
  }

  /// A port nothing listens on now.
  static func free() throws -> UInt16 {
    let (socket, port) = try listen()
    close(socket)
    return port
  }

  /// Waits (up to 10 s) until something accepts connections on `port`.
  static func waitUntilAccepting(_ port: UInt16) throws {
    for _ in 0..<200 {
      let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_port = port.bigEndian
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
      }
      close(socket)
      if connected == 0 { return }
      usleep(50_000)
    }
    throw ServerError("nothing accepts connections on port \(port)")
  }
}

struct ServerError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
