package rulestest

import (
	"fmt"
	"net/http"
)

// lookAlikes are names that are "Priority" after the removal of
// default-ignorable characters, NFKC normalization and case folding.
var lookAlikes = []string{
	"priority",
	"PRIORITY",
	"Ｐriority",       // a full-width P
	"ℙriority",       // a double-struck P, which NFKC makes a P
	"Priority\u200b", // a zero-width space after it
	"\u2060Priority", // a word joiner before it
	"Prio\u00adrity", // a soft hyphen inside
	"Pr\u200diority", // a zero-width joiner inside
	"Priority\ufe0f", // a variation selector after it
}

// Café in its two Unicode spellings: é as one code point (NFC), and e with a
// combining acute accent (NFD).
const (
	cafeNFC = "Caf\u00e9"
	cafeNFD = "Cafe\u0301"
)

// hidden are names that the rules refuse, with what the refusal says.
var hidden = []struct{ name, want string }{
	{"", "empty name"},
	{"Priority ", "white space"},
	{" Priority", "white space"},
	{"Priority\u00a0", "white space"},
	{"\u3000", "white space"},
	{"\u200b", "nothing visible"},
	{"\u200b\u200d\ufeff", "nothing visible"},
	{"Pri\x00ority", "control character"},
	{"Pri\nority", "control character"},
	{"Pri\tority", "control character"},
	{"Pri\u0085ority", "control character"},
	{"\u202eytiroirP", "bidirectional control"},
	{"Pri\u202aority", "bidirectional control"},
	{"Pri\u2066ority\u2069", "bidirectional control"},
}

func lookAlikeFieldNames(c *client) {
	c.create(`{"name":"Priority","data_type":"single_select","options":[{"name":"High","color":"red"}]}`)
	cafe := c.create(`{"name":"` + cafeNFC + `","data_type":"text"}`)
	cafePath := fmt.Sprintf("%s/%d", c.fieldsPath(), cafe.ID)
	for _, name := range lookAlikes {
		c.refused(http.MethodPost, c.fieldsPath(), `{"name":`+quote(name)+`,"data_type":"text"}`, `named "Priority"`)
		c.refused(http.MethodPatch, cafePath, `{"name":`+quote(name)+`}`, `named "Priority"`)
	}
	c.refused(http.MethodPost, c.fieldsPath(), `{"name":"`+cafeNFD+`","data_type":"date"}`, `named "`+cafeNFC+`"`)
	// A field may take another spelling of its own name.
	if a := c.do(http.MethodPatch, cafePath, `{"name":"`+cafeNFD+`"}`); a.status != http.StatusOK {
		c.t.Errorf("renaming %q to %q: %d %s, want 200", cafeNFC, cafeNFD, a.status, a.body)
	}
}

func lookAlikeOptionNames(c *client) {
	stage := c.create(`{"name":"Stage","data_type":"single_select","options":[{"name":"Priority","color":"red"},{"name":"` + cafeNFC + `","color":"blue"}]}`)
	stagePath := fmt.Sprintf("%s/%d", c.fieldsPath(), stage.ID)
	kept := fmt.Sprintf(`{"id":%d,"name":"Priority","color":"red"},{"id":%d,"name":"%s","color":"blue"}`,
		stage.Options[0].ID, stage.Options[1].ID, cafeNFC)
	for _, name := range append(lookAlikes, cafeNFD) {
		option := `{"name":` + quote(name) + `,"color":"green"}`
		c.refused(http.MethodPost, c.fieldsPath(),
			`{"name":"Size","data_type":"multi_select","options":[{"name":"Priority","color":"red"},{"name":"`+cafeNFC+`","color":"blue"},`+option+`]}`,
			"duplicate option name")
		c.refused(http.MethodPatch, stagePath, `{"options":[`+kept+`,`+option+`]}`, "duplicate option name")
	}
}

func hiddenNames(c *client) {
	stage := c.create(`{"name":"Stage","data_type":"single_select","options":[{"name":"Todo","color":"gray"}]}`)
	stagePath := fmt.Sprintf("%s/%d", c.fieldsPath(), stage.ID)
	for _, h := range hidden {
		option := `{"name":` + quote(h.name) + `,"color":"green"}`
		c.refused(http.MethodPost, c.fieldsPath(), `{"name":`+quote(h.name)+`,"data_type":"text"}`, h.want)
		c.refused(http.MethodPatch, stagePath, `{"name":`+quote(h.name)+`}`, h.want)
		c.refused(http.MethodPost, c.fieldsPath(), `{"name":"Size","data_type":"single_select","options":[`+option+`]}`, h.want)
		c.refused(http.MethodPatch, stagePath, fmt.Sprintf(`{"options":[{"id":%d,"name":"Todo","color":"gray"},%s]}`, stage.Options[0].ID, option), h.want)
	}
}
