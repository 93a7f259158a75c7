// A fresh directory for each test: the test targets' shared
// `TemporaryDirectory`, in every file of this target.
@_exported import CalldirTestSupport
