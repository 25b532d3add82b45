package pgstore_test

import (
	"testing"

	"github.com/issuefields/issuefields/storetest"
)

func TestConformance(t *testing.T) {
	databaseURL(t)
	storetest.Run(t, func(t *testing.T) storetest.Store {
		s, _ := newStore(t)
		return s
	})
}
