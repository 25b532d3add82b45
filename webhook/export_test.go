package webhook

// NewWithSleep is New with the function that waits between attempts, so that
// tests record the waits instead of waiting.
var NewWithSleep = newNotifier

// ValueID is the id of the value of field on issue in deliveries.
var ValueID = valueID
