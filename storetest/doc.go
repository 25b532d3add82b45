// Package storetest checks an implementation of [issuefields.Store] against
// the contract in that interface's documentation.
//
// The Store interface has no way to put data in, so the suite tests a
// [Store]: an issuefields.Store with seed methods that the suite calls to
// set up each case. Every case gets a fresh, empty store and is named with
// the sentence of the contract it enforces. The suite reads through Snapshot
// alone, and writes with UpdateIssue from Snapshots it read: a write from a
// current Snapshot stores its values under a version the issue never had;
// one from a stale Snapshot (after another write, a rename or transfer of
// the repository, a new or changed field, a deletion or transfer of the
// issue) gives ErrChanged and stores nothing; of many writers from one
// Snapshot exactly one wins; and writers that retry on ErrChanged lose no
// value. Some cases check the seed methods themselves: what each refuses,
// with the sentinel error that says what is missing, and that a refused call
// changes nothing that Snapshot shows. A store that also implements
// [issuefields.FieldManager] is checked against that interface's contract
// too (new IDs that the organization never had, fields stored as given,
// issues left alone, refused changes changing nothing, changes of one
// organization taking turns); for another store those cases pass without a
// call. So is a store that also implements [seed.Emptier]: after Empty,
// Snapshot finds nothing, the seed methods fill the store as a new one, and
// no version from before Empty comes back. A store's hooks have a suite of
// their own, webhook/webhooktest.
//
// [Run] runs each case as a subtest; hooking an implementation up is one line:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) storetest.Store { return mystore.New() })
//	}
//
// [TestStore] runs the same cases without a [testing.T] and returns an error
// that names every failed case, so that the suite itself can be tested
// against stores that are broken on purpose.
//
// A second suite checks an implementation of [issuefields.WriteLimiter], such
// as one that several servers share, against the contract in the
// documentation of that interface and of [issuefields.WriteLimits]: each
// limit allows a burst of its count and then refuses with a positive
// retryAfter until a write refills, both limits count, a refused write counts
// against nothing, keys are counted apart whatever their length and bytes, and
// concurrent calls allow no more than the limit. [RunWriteLimiter] runs it
// with a new limiter per case; [TestWriteLimiter] runs it without a
// [testing.T]:
//
//	func TestWriteLimiterConformance(t *testing.T) {
//		storetest.RunWriteLimiter(t, func(t *testing.T, limits issuefields.WriteLimits) issuefields.WriteLimiter {
//			return mylimiter.New(limits)
//		})
//	}
package storetest
