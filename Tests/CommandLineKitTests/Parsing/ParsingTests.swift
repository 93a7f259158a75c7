import CommandLineKit
import Testing

@Suite struct ParsingTests {
  @Test func optionsFlagsAndDefaults() throws {
    let run = ToolRun("compile", "a.csv", "--output", "out.db")
    #expect(run.code == .success)
    #expect(run.standardError == "")
    #expect(run.standardOutput == """
      {"input":["a.csv"],"output":"out.db","region":"ZZ","exclude":[],"maxErrors":10,\
      "memory":536870912,"json":false,"strict":false}

      """)
  }

  @Test func equalsFormShortAliasesAndFlags() {
    let run = ToolRun(
      "compile", "--region=US", "-o", "out.db", "a", "b", "--json", "-s", "--max-errors=3", "--memory", "2G")
    #expect(run.code == .success)
    #expect(run.standardOutput == """
      {"input":["a","b"],"output":"out.db","region":"US","exclude":[],"maxErrors":3,\
      "memory":2147483648,"json":true,"strict":true}

      """)
  }

  @Test func shortOptionWithAttachedValue() {
    #expect(ToolRun("compile", "-oout.db", "a").standardOutput.contains(#""output":"out.db""#))
    #expect(ToolRun("compile", "-o=out.db", "a").standardOutput.contains(#""output":"out.db""#))
    // A cluster of a flag followed by an option that takes the next argument.
    let cluster = ToolRun("compile", "-so", "out.db", "a")
    #expect(cluster.code == .success)
    #expect(cluster.standardOutput.contains(#""output":"out.db""#))
    #expect(cluster.standardOutput.contains(#""strict":true"#))
  }

  @Test func repeatedOptionsAccumulateAndSingleOptionsKeepTheLast() {
    let run = ToolRun(
      "compile", "-o", "first.db", "--exclude", "x.txt", "a", "--exclude=y.txt", "-o", "last.db",
      "--region", "DE", "--region", "FR")
    #expect(run.code == .success)
    #expect(run.standardOutput.contains(#""exclude":["x.txt","y.txt"]"#))
    #expect(run.standardOutput.contains(#""output":"last.db""#))
    #expect(run.standardOutput.contains(#""region":"FR""#))
  }

  @Test func doubleDashEndsOptions() {
    let run = ToolRun("compile", "-o", "out.db", "--", "--json", "-s", "-")
    #expect(run.code == .success)
    #expect(run.standardOutput.contains(#""input":["--json","-s","-"]"#))
    #expect(run.standardOutput.contains(#""json":false"#))
    #expect(run.standardOutput.contains(#""strict":false"#))
  }

  @Test func helpAfterDoubleDashIsAnArgument() {
    let run = ToolRun("compile", "-o", "out.db", "--", "--help")
    #expect(run.code == .success)
    #expect(run.standardOutput.contains(#""input":["--help"]"#))
  }

  @Test func singleDashIsAPositional() {
    let run = ToolRun("compile", "-o", "out.db", "-")
    #expect(run.standardOutput.contains(#""input":["-"]"#))
  }

  @Test func variadicPositionalMayBeEmpty() {
    let run = ToolRun("device", "dump")
    #expect(run.code == .success)
    #expect(run.standardOutput == "limit=none numbers=[]\n")
  }

  @Test func variadicPositionalCollectsEverything() {
    let run = ToolRun("device", "dump", "1", "-n", "5", "2", "3")
    #expect(run.code == .success)
    #expect(run.standardOutput == "limit=5 numbers=[\"1\", \"2\", \"3\"]\n")
  }

  @Test func negativeNumbersAreValues() {
    let run = ToolRun("device", "dump", "-n", "-2", "-5")
    #expect(run.code == .success)
    #expect(run.standardOutput == "limit=-2 numbers=[\"-5\"]\n")
  }

  @Test func optionalPositionalUsesItsDefault() {
    #expect(ToolRun("device", "load", "/tmp/store").standardOutput == "load /tmp/store default\n")
    #expect(ToolRun("device", "load", "/tmp/store", "com.x", "--dry-run").standardOutput
      == "load /tmp/store com.x dry-run\n")
  }

  @Test func validateRunsBeforeRun() {
    let run = ToolRun("compile", "-o", "x", "a", "--max-errors", "-1")
    #expect(run.code == .usage)
    #expect(run.standardOutput == "")
    #expect(run.standardError.hasPrefix("error: '--max-errors' must not be negative\nusage: calldir compile "))
  }
}
