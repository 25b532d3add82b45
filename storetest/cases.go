package storetest

import "slices"

// cases lists every case of the suite, grouped by the method they test.
var cases = slices.Concat(repositoryCases, issueCases, recordCases, fieldsCases, valuesCases, staleCases, copyCases, concurrencyCases, seedCases, fieldManagerCases, issueStoreCases,
	emptyCases)
