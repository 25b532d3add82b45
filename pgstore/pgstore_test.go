package pgstore_test

import (
	"testing"

	"github.com/issuefields/issuefields/storetest"
	"github.com/issuefields/issuefields/webhook"
	"github.com/issuefields/issuefields/webhook/webhooktest"
)

func TestConformance(t *testing.T) {
	databaseURL(t)
	storetest.Run(t, func(t *testing.T) storetest.Store {
		s, _ := newStore(t)
		return s
	})
}

func TestHooksConformance(t *testing.T) {
	databaseURL(t)
	webhooktest.RunStore(t, func(t *testing.T) webhook.Store {
		s, _ := newStore(t)
		return s.Hooks()
	})
}
