#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// What `stat` says of a file.
public struct FileStatus: Sendable, Hashable {
  /// The kind of file.
  public enum Kind: Sendable, Hashable, CustomStringConvertible {
    case regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, unknown

    /// `named pipe`, `character device`, …: as a message names the kind.
    public var description: String {
      switch self {
      case .regular: "regular file"
      case .directory: "directory"
      case .symbolicLink: "symbolic link"
      case .fifo: "named pipe"
      case .characterDevice: "character device"
      case .blockDevice: "block device"
      case .socket: "socket"
      case .unknown: "file of unknown kind"
      }
    }
  }

  public var kind: Kind
  /// Size in bytes (regular files).
  public var size: Int64
  /// Permission bits.
  public var permissions: mode_t
  /// Last modification, seconds since 1970 (UTC).
  public var modificationTime: Int64
  /// Device and inode: the file's identity.
  public var device: UInt64
  public var inode: UInt64

  init(_ status: stat) {
    switch status.st_mode & S_IFMT {
    case S_IFREG: kind = .regular
    case S_IFDIR: kind = .directory
    case S_IFLNK: kind = .symbolicLink
    case S_IFIFO: kind = .fifo
    case S_IFCHR: kind = .characterDevice
    case S_IFBLK: kind = .blockDevice
    case S_IFSOCK: kind = .socket
    default: kind = .unknown
    }
    size = Int64(status.st_size)
    permissions = status.st_mode & 0o7777
    #if canImport(Darwin)
      modificationTime = Int64(status.st_mtimespec.tv_sec)
    #else
      modificationTime = Int64(status.st_mtim.tv_sec)
    #endif
    // `dev_t` is signed on Darwin (`Int32`): keep its bits, never trap.
    device = UInt64(truncatingIfNeeded: status.st_dev)
    inode = UInt64(truncatingIfNeeded: status.st_ino)
  }

  /// Whether bytes read from it come from a file of fixed size that can be
  /// read again (not a pipe, terminal or device).
  public var isRegularFile: Bool { kind == .regular }
}
