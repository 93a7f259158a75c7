import Testing

@testable import CallDirectoryCompiler
@testable import CallDirectoryStore

/// `_Markup`: well-formed XML by construction.
@Suite struct MarkupTests {
  @Test func textAndAttributesAreEscaped() {
    var markup = _Markup()
    markup.element("p", ["class": "a\"b<c>&d", "title": "line\nbreak\ttab", "data-none": nil]) { paragraph in
      paragraph.text("5 < 6 & 7 > 3 \"quoted\"")
      paragraph.empty("br")
    }
    #expect(markup.output == #"<p class="a&quot;b&lt;c&gt;&amp;d" title="line&#10;break&#9;tab">"#
      + #"5 &lt; 6 &amp; 7 &gt; 3 "quoted"<br/></p>"#)
  }

  /// Hidden characters are shown as their visible escape (``ShownText``),
  /// never as themselves; what XML cannot hold otherwise becomes U+FFFD.
  @Test func hiddenCharactersAreShownEscapedAndOthersXMLCannotHoldAreReplaced() {
    var markup = _Markup()
    markup.element("td", text: "bell\u{07} nul\u{00} \u{FFFF} cr\r ok ☎️ evil\u{202E}txt.exe \u{1B}[2J")
    #expect(markup.output == "<td>bell\\x07 nul\\x00 \u{FFFD} cr\\r ok ☎️ evil\\u202Etxt.exe \\x1B[2J</td>")
    var attribute = _Markup()
    attribute.empty("rect", ["title": "a\u{202E}b\rc"])
    #expect(attribute.output == #"<rect title="a\u202Eb&#13;c"/>"#)
  }

  @Test func nestedElementsCloseWhereTheyOpened() {
    var markup = _Markup()
    markup.element("table") { table in
      table.element("tr") { row in
        row.element("td", text: "1")
        row.element("td") { _ in }
      }
    }
    #expect(markup.output == "<table><tr><td>1</td><td></td></tr></table>")
  }
}
