package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/issuefields/issuefields/webhook"
)

var (
	// deliveriesDesc describes the webhook deliveries by outcome.
	deliveriesDesc = prometheus.NewDesc("issuefields_webhook_deliveries_total",
		"Webhook deliveries by outcome: delivered (answered 2xx), failed, and dropped (the queue was full, or a reset replaced their data) or abandoned (at the stop) before they were sent.",
		[]string{"outcome"}, nil)
	// queuedDesc describes the events waiting in the webhook queue.
	queuedDesc = prometheus.NewDesc("issuefields_webhook_queued",
		"Events and single deliveries waiting in the webhook queue now.", nil, nil)
)

// deliveryCollector is a prometheus.Collector that reads the counts of a
// webhook.Notifier when it is scraped, so that the deliveries cost nothing
// more to count.
type deliveryCollector struct {
	hooks *webhook.Notifier
}

// Describe sends the descriptors of the deliveries and of the queue.
func (c *deliveryCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- deliveriesDesc
	ch <- queuedDesc
}

// Collect sends the deliveries by outcome and the length of the queue now.
func (c *deliveryCollector) Collect(ch chan<- prometheus.Metric) {
	s := c.hooks.Stats()
	for _, o := range []struct {
		outcome string
		n       uint64
	}{{"delivered", s.Delivered}, {"failed", s.Failed}, {"dropped", s.Dropped}, {"abandoned", s.Abandoned}} {
		ch <- prometheus.MustNewConstMetric(deliveriesDesc, prometheus.CounterValue, float64(o.n), o.outcome)
	}
	ch <- prometheus.MustNewConstMetric(queuedDesc, prometheus.GaugeValue, float64(c.hooks.Queued()))
}
