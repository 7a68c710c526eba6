package orderstore

// The order test helpers, for the tests of package orderstore_test (those
// that need another domain store, which this package does not import).
var (
	TestRecord = testRecord
	MustPut    = mustPut
	ApplyAll   = applyAll
)
