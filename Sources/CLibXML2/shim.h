#pragma once
// libxml2 for the `xml` source format (CallDirectoryCompiler's
// XMLSourceReader): the streaming reader, streamable patterns and XPath.
#include <libxml/xmlversion.h>
// Debian builds libxml2 with ICU, whose <unicode/ucnv.h> would then be
// imported into Swift next to Foundation's private _FoundationICU and clash
// with it (CICUShim's reason). Only libxml2's encoding handler struct holds
// ICU types, and calldir never touches it: libxml2 converts encodings
// inside its own code, built as Debian built it.
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/xmlreader.h>
#include <libxml/pattern.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#include <libxml/entities.h>
#include <libxml/hash.h>
#include <libxml/xmlerror.h>

/// libxml2's deallocator (a global function pointer Swift cannot read
/// safely across threads; it is set once, before any parse).
static inline void calldir_xmlFree(void *pointer) { xmlFree(pointer); }
