#pragma once
// libxml2 for the `xml` source format (CallDirectorySources'
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

static inline void calldir_xmlIgnoreGenericError(void *context, const char *message, ...) {
  (void)context;
  (void)message;
}

/// Sends libxml2's generic messages (a few XPath evaluation errors, which
/// bypass the structured handlers) nowhere instead of standard error, on
/// the calling thread (libxml2 keeps the handler per thread) and for the
/// threads it creates later.
static inline void calldir_xmlSilenceGenericErrors(void) {
  xmlSetGenericErrorFunc(NULL, calldir_xmlIgnoreGenericError);
  xmlThrDefSetGenericErrorFunc(NULL, calldir_xmlIgnoreGenericError);
}
