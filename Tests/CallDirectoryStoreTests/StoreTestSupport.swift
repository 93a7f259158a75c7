// The store tests' throwaway directories (`Workspace`, `TemporaryDirectory`)
// are the test targets' shared ones, in every file of this target.
@_exported import CalldirTestSupport
