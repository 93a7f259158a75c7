import Testing

@testable import CallDirectoryCompiler

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

  @Test func charactersXMLCannotHoldAreReplaced() {
    var markup = _Markup()
    markup.element("td", text: "bell\u{07} nul\u{00} \u{FFFF} cr\r ok ☎️")
    #expect(markup.output == "<td>bell\u{FFFD} nul\u{FFFD} \u{FFFD} cr&#13; ok ☎️</td>")
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
