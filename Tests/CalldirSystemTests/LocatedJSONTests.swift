import CalldirSystem
import Testing

/// A decoder's own error, as a caller wraps ``JSONDecodingError``.
struct WrappedDecodingError: Error, Equatable {
  let error: JSONDecodingError
}

@Suite struct LocatedJSONTests {
  static let document = """
    {"name": "calldir", "count": 3, "negative": -2, "ratio": 0.5, "flag": true, "none": null,
     "digest": "98e6c1d7e1b3f0f6e0f8a7c3d3b2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0",
     "tags": ["a", "b"], "items": [{"id": 1, "deltas": [{"from": 1}, {"from": "two"}]}, {"id": 2, "deltas": []}],
     "nested": {"deeper": {"deepest": [10, [20, {"leaf": "x"}]]}}}
    """

  static func root(path: String = "doc") throws -> LocatedJSON<WrappedDecodingError> {
    LocatedJSON(try JSONParser.parse(document), path: path) { WrappedDecodingError(error: $0) }
  }

  /// The error `read` throws.
  static func failure<T>(
    _ read: @autoclosure () throws(WrappedDecodingError) -> T
  ) -> JSONDecodingError? {
    do {
      _ = try read()
      return nil
    } catch {
      return error.error
    }
  }

  @Test func readsTypedMembers() throws {
    let root = try Self.root().object()
    #expect(try root.member("name").string() == "calldir")
    #expect(try root.member("count").integer() == 3)
    #expect(try root.member("count").integer(minimum: 3) == 3)
    #expect(try root.member("negative").integer() == -2)
    #expect(try root.member("ratio").number() == 0.5)
    #expect(try root.member("count").number() == 3)
    #expect(try root.member("flag").bool() == true)
    #expect(try root.member("tags").strings() == ["a", "b"])
    #expect(try root.member("digest").sha256() == "98e6c1d7e1b3f0f6e0f8a7c3d3b2b1a09f8e7d6c5b4a39281706f5e4d3c2b1a0")
    #expect(try root.members().map(\.key) == ["name", "count", "negative", "ratio", "flag", "none", "digest", "tags", "items", "nested"])
    #expect(try root.members().map(\.value.path).prefix(2) == ["doc.name", "doc.count"])
    #expect(root.member("count").value == .int(3))
  }

  @Test func pathsJoinMembersAndElements() throws {
    let root = try Self.root().object()
    #expect(root.path == "doc")
    #expect(root.member("name").path == "doc.name")
    #expect(root.path(of: "name") == "doc.name")
    let items = try root.member("items").objects()
    #expect(items.map(\.path) == ["doc.items[0]", "doc.items[1]"])
    let deltas = try items[0].member("deltas").objects()
    #expect(deltas.map(\.path) == ["doc.items[0].deltas[0]", "doc.items[0].deltas[1]"])
    #expect(try deltas[0].member("from").integer(minimum: 1) == 1)
    let deepest = try root.member("nested").object().member("deeper").object().member("deepest").array()
    #expect(deepest.map(\.path) == ["doc.nested.deeper.deepest[0]", "doc.nested.deeper.deepest[1]"])
    let leaf = try deepest[1].array()[1].object().member("leaf")
    #expect(leaf.path == "doc.nested.deeper.deepest[1][1].leaf")
    #expect(try leaf.string() == "x")
  }

  @Test func anUnnamedRootNamesItsMembersAloneAndItselfRoot() throws {
    let root = try Self.root(path: "")
    #expect(root.member("items").path == "items")
    #expect(root.path(of: "items") == "items")
    #expect(try root.member("items").array().map(\.path) == ["items[0]", "items[1]"])
    let array = LocatedJSON(JSONValue.array([]), path: "") { WrappedDecodingError(error: $0) }
    #expect(Self.failure(try array.object()) == JSONDecodingError(path: "(root)", expected: "an object", found: "array"))
    #expect(Self.failure(try array.object())?.description == "(root): expected an object")
  }

  @Test func absentAndNullMembers() throws {
    let root = try Self.root().object()
    #expect(root.member("missing").value == nil)
    #expect(!root.member("missing").isPresent)
    #expect(root.member("none").isPresent)
    #expect(root.member("missing").ifPresent == nil)
    #expect(root.member("none").ifPresent?.path == "doc.none")
    #expect(root.member("none").ifNotNull == nil)
    #expect(root.member("missing").ifNotNull == nil)
    #expect(root.member("count").ifNotNull?.path == "doc.count")
    #expect(try root.member("missing").ifPresent?.integer() == nil)
    // A member of something that is not an object is absent.
    #expect(!root.member("name").member("length").isPresent)
    #expect(root.member("name").member("length").path == "doc.name.length")
  }

  @Test func aMissingMemberIsExpectedWithoutAType() throws {
    let missing = try Self.root().object().member("missing")
    let cases: [(JSONDecodingError?, String)] = [
      (Self.failure(try missing.string()), "a string"),
      (Self.failure(try missing.integer()), "an integer"),
      (Self.failure(try missing.number()), "a number"),
      (Self.failure(try missing.bool()), "a boolean"),
      (Self.failure(try missing.object()), "an object"),
      (Self.failure(try missing.members()), "an object"),
      (Self.failure(try missing.array()), "an array"),
      (Self.failure(try missing.objects()), "an array"),
      (Self.failure(try missing.strings()), "an array of strings"),
      (Self.failure(try missing.sha256()), "a string"),
    ]
    for (error, expected) in cases {
      #expect(error == JSONDecodingError(path: "doc.missing", expected: expected))
      #expect(error?.description == "doc.missing: expected \(expected)")
    }
  }

  /// Every read of a value of each other type names the path, what was
  /// expected and the type found.
  @Test(arguments: ["name", "count", "ratio", "flag", "none", "tags", "nested"])
  func aValueOfAnotherTypeIsRefused(_ key: String) throws {
    let value = try Self.root().object().member(key)
    let found = try #require(value.value?.typeName)
    let reads: [(String, JSONDecodingError?, Set<String>)] = [
      ("a string", Self.failure(try value.string()), ["string"]),
      ("an integer", Self.failure(try value.integer()), ["integer"]),
      ("a number", Self.failure(try value.number()), ["integer", "number"]),
      ("a boolean", Self.failure(try value.bool()), ["boolean"]),
      ("an object", Self.failure(try value.object()), ["object"]),
      ("an object", Self.failure(try value.members()), ["object"]),
      ("an array", Self.failure(try value.array()), ["array"]),
      ("an array of strings", Self.failure(try value.array(expected: "an array of strings")), ["array"]),
      ("an array of strings", Self.failure(try value.strings()), ["array"]),
    ]
    for (expected, error, accepted) in reads {
      if accepted.contains(found) {
        #expect(error == nil, "\(key) read as \(expected)")
      } else {
        #expect(error == JSONDecodingError(path: "doc.\(key)", expected: expected, found: found))
        #expect(error?.description == "doc.\(key): expected \(expected)")
      }
    }
  }

  @Test func checksOfTheValue() throws {
    let root = try Self.root().object()
    #expect(
      Self.failure(try root.member("count").integer(minimum: 4))
        == JSONDecodingError(path: "doc.count", expected: "at least 4, got 3"))
    #expect(Self.failure(try root.member("negative").integer(minimum: 0))?.description == "doc.negative: expected at least 0, got -2")
    #expect(
      Self.failure(try root.member("ratio").integer())
        == JSONDecodingError(path: "doc.ratio", expected: "an integer", found: "number"))
    #expect(
      Self.failure(try root.member("name").sha256())
        == JSONDecodingError(path: "doc.name", expected: "64 lowercase hex digits"))
    #expect(Self.failure(try root.member("count").sha256()) == JSONDecodingError(path: "doc.count", expected: "a string", found: "integer"))
    let upper = LocatedJSON(.string(String(repeating: "A", count: 64)), path: "d") { WrappedDecodingError(error: $0) }
    #expect(Self.failure(try upper.sha256())?.description == "d: expected 64 lowercase hex digits")
    let short = LocatedJSON(.string(String(repeating: "a", count: 63)), path: "d") { WrappedDecodingError(error: $0) }
    #expect(Self.failure(try short.sha256())?.description == "d: expected 64 lowercase hex digits")
    #expect(root.member("items").failure(expected: "2, got 3").error.description == "doc.items: expected 2, got 3")
  }

  @Test func elementsAreReadAtTheirIndex() throws {
    let root = try Self.root().object()
    let deltas = try root.member("items").objects()[0].member("deltas").objects()
    #expect(
      Self.failure(try deltas[1].member("from").integer())
        == JSONDecodingError(path: "doc.items[0].deltas[1].from", expected: "an integer", found: "string"))
    #expect(
      Self.failure(try root.member("tags").objects())
        == JSONDecodingError(path: "doc.tags[0]", expected: "an object", found: "string"))
    #expect(
      Self.failure(try root.member("items").strings())
        == JSONDecodingError(path: "doc.items[0]", expected: "a string", found: "object"))
    #expect(try root.member("items").objects()[1].member("deltas").objects().isEmpty)
  }

  @Test func unknownKeysInSortedOrder() throws {
    let root = try Self.root().object()
    let known = ["name", "count", "negative", "ratio", "flag", "none", "digest", "tags", "items", "nested"]
    #expect(root.unknownKey(among: known) == nil)
    #expect(root.unknownKey(among: ["name", "count", "ratio"]) == "digest")
    #expect(root.unknownKey(among: known.filter { $0 != "tags" && $0 != "none" }) == "none")
    #expect(root.member("tags").unknownKey(among: []) == nil)
  }
}
