package persistence

// The order test helpers, for the tests of package persistence_test (those
// that need a domain store built on this package, which this package's own
// tests cannot import).
var (
	TestRecord = testRecord
	MustPut    = mustPut
	ApplyAll   = applyAll
)
