package rulestest

import (
	"fmt"
	"net/http"
	"strings"
)

func tooManyFields(c *client) {
	for i := range 25 {
		c.create(fmt.Sprintf(`{"name":"Field %d","data_type":"text"}`, i+1))
	}
	c.refused(http.MethodPost, c.fieldsPath(), `{"name":"Field 26","data_type":"text"}`, "at most 25")
}

func tooManyOptions(c *client) {
	c.refused(http.MethodPost, c.fieldsPath(), `{"name":"Size","data_type":"single_select","options":`+options(51)+`}`, "at most 50")
	f := c.create(`{"name":"Size","data_type":"multi_select","options":` + options(50) + `}`)
	if len(f.Options) != 50 {
		c.t.Errorf("a field created with 50 options has %d", len(f.Options))
	}
	c.refused(http.MethodPatch, fmt.Sprintf("%s/%d", c.fieldsPath(), f.ID), `{"options":`+options(51)+`}`, "at most 50")
}

func longDescriptions(c *client) {
	long, longest := quote(strings.Repeat("é", 1025)), quote(strings.Repeat("é", 1024))
	c.refused(http.MethodPost, c.fieldsPath(), `{"name":"Team","data_type":"text","description":`+long+`}`, "at most 1024")
	c.refused(http.MethodPost, c.fieldsPath(),
		`{"name":"Size","data_type":"single_select","options":[{"name":"S","color":"gray","description":`+long+`}]}`, "at most 1024")
	f := c.create(`{"name":"Size","data_type":"single_select","description":` + longest +
		`,"options":[{"name":"S","color":"gray","description":` + longest + `}]}`)
	path := fmt.Sprintf("%s/%d", c.fieldsPath(), f.ID)
	c.refused(http.MethodPatch, path, `{"description":`+long+`}`, "at most 1024")
	c.refused(http.MethodPatch, path, fmt.Sprintf(`{"options":[{"id":%d,"name":"S","color":"gray","description":%s}]}`, f.Options[0].ID, long), "at most 1024")
}
