package pgstore

import (
	"encoding/json"
	"math"

	"github.com/issuefields/issuefields"
)

// A storedValue is an [issuefields.Value] as it is kept in the field_values
// column: a JSON object with the field's ID and the one member that the
// field's data type uses. A member that holds its zero value is left out.
type storedValue struct {
	FieldID   int64    `json:"field_id"`
	Text      string   `json:"text,omitempty"`
	Number    *float64 `json:"number,omitempty"`
	Date      string   `json:"date,omitempty"`
	OptionIDs []int64  `json:"option_ids,omitempty"`
}

// encodeValues returns the JSON array that keeps values. A number is written
// in the shortest form that reads back as the same float64, negative zero
// included.
func encodeValues(values []issuefields.Value) ([]byte, error) {
	stored := make([]storedValue, len(values))
	for i, v := range values {
		stored[i] = storedValue{FieldID: v.FieldID, Text: v.Text, Date: v.Date, OptionIDs: v.OptionIDs}
		if v.Number != 0 || math.Signbit(v.Number) {
			stored[i].Number = &v.Number
		}
	}
	return json.Marshal(stored)
}

// decodeValues returns the values that the JSON array data keeps. The result
// is never nil and shares no memory with data.
func decodeValues(data []byte) ([]issuefields.Value, error) {
	var stored []storedValue
	if err := json.Unmarshal(data, &stored); err != nil {
		return nil, err
	}
	values := make([]issuefields.Value, len(stored))
	for i, v := range stored {
		values[i] = issuefields.Value{FieldID: v.FieldID, Text: v.Text, Date: v.Date, OptionIDs: v.OptionIDs}
		if v.Number != nil {
			values[i].Number = *v.Number
		}
	}
	return values, nil
}
