package pgstore

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"

	"github.com/issuefields/issuefields"
	"github.com/issuefields/issuefields/internal/jsonappend"
)

// A storedValue is an [issuefields.Value] as it is kept in the field_values
// column: a JSON object with the field's ID and the one member that the
// field's data type uses. A member that holds its zero value is left out.
// encodeValues writes it by hand; decodeValues reads it with encoding/json.
type storedValue struct {
	FieldID   int64    `json:"field_id"`
	Text      string   `json:"text,omitempty"`
	Number    *float64 `json:"number,omitempty"`
	Date      string   `json:"date,omitempty"`
	OptionIDs []int64  `json:"option_ids,omitempty"`
}

// encodeValues returns the JSON array that keeps values, written by hand
// (a write's CPU is spent here on every write): the bytes that
// encoding/json writes for the storedValues with HTML escaping off. A number
// is written in the shortest form that reads back as the same float64,
// negative zero included. A number that JSON cannot hold (NaN, an infinity)
// is an error.
func encodeValues(values []issuefields.Value) ([]byte, error) {
	buf := make([]byte, 0, 64*len(values)+2)
	buf = append(buf, '[')
	for i := range values {
		v := &values[i]
		if math.IsNaN(v.Number) || math.IsInf(v.Number, 0) {
			return nil, fmt.Errorf("the value of field %d is %v, which JSON cannot hold", v.FieldID, v.Number)
		}
		if i > 0 {
			buf = append(buf, ',')
		}
		buf = append(buf, `{"field_id":`...)
		buf = strconv.AppendInt(buf, v.FieldID, 10)
		if v.Text != "" {
			buf = append(buf, `,"text":`...)
			buf = jsonappend.String(buf, v.Text)
		}
		if v.Number != 0 || math.Signbit(v.Number) {
			buf = append(buf, `,"number":`...)
			buf = jsonappend.Float(buf, v.Number)
		}
		if v.Date != "" {
			buf = append(buf, `,"date":`...)
			buf = jsonappend.String(buf, v.Date)
		}
		if len(v.OptionIDs) > 0 {
			buf = append(buf, `,"option_ids":[`...)
			for j, id := range v.OptionIDs {
				if j > 0 {
					buf = append(buf, ',')
				}
				buf = strconv.AppendInt(buf, id, 10)
			}
			buf = append(buf, ']')
		}
		buf = append(buf, '}')
	}
	return append(buf, ']'), nil
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
