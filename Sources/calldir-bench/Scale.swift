import Foundation

/// `make bench-scale`: the cost curve of `calldir build` over input sizes,
/// past the size of memory: time, peak RSS, spilled runs.
enum ScaleBenchmark {
  /// Builds `sizes` E.164 lines each (inputs generated once into `data`)
  /// and prints one table row per size and memory limit.
  static func run(sizes: [Int], memoryLimits: [String?], binary: String, data: Datasets) throws {
    var lines: [String] = []
    for count in sizes {
      FileHandle.standardError.write(Data("bench: scale: \(count) lines\n".utf8))
      let input = try data.e164Lines(count: count, name: "e164-\(count).txt")
      let bytes = (try FileManager.default.attributesOfItem(atPath: input)[.size] as? NSNumber)?.intValue ?? 0
      let config = data.path("build-\(count).json")
      try "{\"sources\": [{\"path\": \"\(input)\", \"format\": \"lines\", \"list\": \"block\"}]}"
        .write(toFile: config, atomically: true, encoding: .utf8)
      for limit in memoryLimits {
        let store = data.path("scale-store-\(count)")
        try? FileManager.default.removeItem(atPath: store)
        let output = data.path("scale-result.json")
        var argv = [binary, "build", "--config", config, "--store", store, "--json"]
        if let limit { argv += ["--memory-limit", limit] }
        let run = try ProcessRunner.run(argv, stdout: output)
        guard run.status == 0 else { throw BenchError.failed(argv.joined(separator: " "), run.status) }
        let result = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any]
        let spilled = result?["spilledRuns"] as? Int ?? 0
        let blob = result?["bytes"] as? Int ?? 0
        try? FileManager.default.removeItem(atPath: store)
        lines.append(String(
          format: "| %@ | %@ | %@ | %.2f s | %@ | %d | %.1fM lines/s | %@ |", count.formatted(), gib(bytes),
          limit ?? "default (\(gib(defaultLimit())))", run.seconds, gib(run.peakBytes), spilled,
          Double(count) / run.seconds / 1e6, gib(blob)))
        print(lines.last ?? "")
      }
    }
    print("")
    print("| lines | input | --memory-limit | build time | peak RSS | spilled runs | throughput | blob |")
    print("|---:|---:|---|---:|---:|---:|---:|---:|")
    for line in lines { print(line) }
  }

  /// What `calldir build` takes by default: half of physical memory.
  static func defaultLimit() -> Int { Int(ProcessInfo.processInfo.physicalMemory / 2) }

  static func gib(_ bytes: Int) -> String {
    bytes >= 1 << 30 ? String(format: "%.2f GiB", Double(bytes) / 1_073_741_824) : String(format: "%.1f MiB", Double(bytes) / 1_048_576)
  }
}
