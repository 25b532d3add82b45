package rulestest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

func pagePastMaxInt(c *client) {
	notes := c.create(`{"name":"Notes","data_type":"text"}`)
	body := fmt.Sprintf(`{"issue_field_values":[{"field_id":%d,"value":"Needs a design review"}]}`, notes.ID)
	if a := c.do(http.MethodPost, c.valuesPath(), body); a.status != http.StatusOK {
		c.t.Fatalf("POST %s: %d %s", body, a.status, a.body)
	}
	for _, page := range []string{"9223372036854775807", "9223372036854775808", "999999999999999999999"} {
		a := c.do(http.MethodGet, c.valuesPath()+"?page="+page, "")
		link := a.header.Get("Link")
		if a.status != http.StatusOK || strings.TrimSpace(a.body) != "[]" ||
			!strings.Contains(link, `page=1>; rel="first"`) || !strings.Contains(link, `page=1>; rel="last"`) {
			c.t.Errorf("GET ?page=%s: %d %s, Link %q; want 200 [] with links to the first and last page, 1", page, a.status, a.body, link)
		}
	}
}

func numbersRoundingToZero(c *client) {
	estimate := c.create(`{"name":"Estimate","data_type":"number"}`)
	write := func(number string) answer {
		return c.do(http.MethodPost, c.valuesPath(), fmt.Sprintf(`{"issue_field_values":[{"field_id":%d,"value":%s}]}`, estimate.ID, number))
	}
	for _, number := range []string{"1e-400", "-1e-400", "2e-324", "0.00001e-320", "1e-99999999999999999999"} {
		a := write(number)
		var e struct {
			Errors []struct {
				Message string `json:"message"`
			} `json:"errors"`
		}
		if err := json.Unmarshal([]byte(a.body), &e); a.status != http.StatusUnprocessableEntity || err != nil ||
			len(e.Errors) != 1 || !strings.Contains(e.Errors[0].Message, number) {
			c.t.Errorf("writing %s: %d %s, want 422 with an error that names it", number, a.status, a.body)
		}
	}
	for number, listed := range map[string]string{
		"0": "0", "-0": "0", "0.0": "0", "0e10": "0", "-0.000E-400": "0", "5e-324": "5e-324", "1e-300": "1e-300",
	} {
		a := write(number)
		if want := `"value":` + listed + `}`; a.status != http.StatusOK || !strings.Contains(a.body, want) {
			c.t.Errorf("writing %s: %d %s, want 200 with %s", number, a.status, a.body, want)
		}
	}
}

func numbersBeyondExactIntegers(c *client) {
	estimate := c.create(`{"name":"Estimate","data_type":"number"}`)
	write := func(number string) answer {
		return c.do(http.MethodPost, c.valuesPath(), fmt.Sprintf(`{"issue_field_values":[{"field_id":%d,"value":%s}]}`, estimate.ID, number))
	}
	for number, listed := range map[string]string{
		"9007199254740992": "9007199254740992", "-9007199254740992": "-9007199254740992",
		"9.007199254740992e15": "9007199254740992", "9007199254740992.75": "9007199254740992",
		"-9007199254740991": "-9007199254740991", "1e15": "1000000000000000",
	} {
		a := write(number)
		if want := `"value":` + listed + `}`; a.status != http.StatusOK || !strings.Contains(a.body, want) {
			c.t.Errorf("writing %s: %d %s, want 200 with %s", number, a.status, a.body, want)
		}
	}
	kept := c.do(http.MethodGet, c.valuesPath(), "")
	for _, number := range []string{"9007199254740993", "-9007199254740993", "9007199254740993.0", "9.007199254740993e15",
		"90071992547409930e-1", "9007199254740994", "1e16", "1e300", "-1e300", "1.7976931348623157e308"} {
		a := write(number)
		var e struct {
			Errors []struct {
				Message string `json:"message"`
			} `json:"errors"`
		}
		if err := json.Unmarshal([]byte(a.body), &e); a.status != http.StatusUnprocessableEntity || err != nil || len(e.Errors) != 1 ||
			!strings.Contains(e.Errors[0].Message, number) || !strings.Contains(e.Errors[0].Message, "9007199254740992") {
			c.t.Errorf("writing %s: %d %s, want 422 with an error that names it and the bound 9007199254740992", number, a.status, a.body)
		}
	}
	if after := c.do(http.MethodGet, c.valuesPath(), ""); after.body != kept.body {
		c.t.Errorf("the refused numbers changed the issue's values: %s, before them %s", after.body, kept.body)
	}
}

func doubleSlashPaths(c *client) {
	for _, path := range []string{
		"/" + c.valuesPath(),
		"/repos/" + c.h.Org + "//" + c.h.Repo + "/issues/1/issue-field-values",
		c.valuesPath() + "//1",
		"/orgs//" + c.h.Org + "/issue-fields",
		c.fieldsPath() + "//",
	} {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			a := c.do(method, path, `{"issue_field_values":[]}`)
			var e struct {
				Message string `json:"message"`
			}
			if err := json.Unmarshal([]byte(a.body), &e); a.status != http.StatusNotFound || err != nil ||
				a.header.Get("Content-Type") != "application/json; charset=utf-8" || a.header.Get("Location") != "" {
				c.t.Errorf("%s %s: %d %q %s, Location %q; want a JSON 404 without Location",
					method, path, a.status, a.header.Get("Content-Type"), a.body, a.header.Get("Location"))
			}
		}
	}
}
