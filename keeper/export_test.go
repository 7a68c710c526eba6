package keeper

// RetryWait is retryWait, for the external tests that drive the keeper's
// HTTP source against the real server (package http imports keeper, so
// those tests cannot live inside the package).
var RetryWait = retryWait
