package bot_test

import (
	"strings"
	"testing"
)

// "set an alert when project Atlas hits 80% of budget" puts the threshold
// on the budget Atlas has, keeping its amount; with no budget it sets
// nothing and says how to set one with the alert.
func TestAlertOnABudgetInWords(t *testing.T) {
	b, _ := paceBot(t)
	a := askPace(t, b, "set an alert when project Atlas hits 80% of budget")
	if !strings.Contains(a.Text, "atlas has no budget") || !strings.Contains(a.Text, "/gpu budget set atlas $5000 alerts=80") {
		t.Errorf("no budget yet:\n%s", a.Text)
	}
	askPace(t, b, "set a budget of $5,000 a month for atlas")
	a = askPace(t, b, "set an alert when project Atlas hits 80% of budget")
	if !strings.Contains(a.Text, "Alerts set: atlas's budget ($5,000.00 a month) alerts at 80 %") {
		t.Errorf("alert on atlas's budget:\n%s", a.Text)
	}
	a = askPace(t, b, "给 atlas 的预算设个告警，到90%提醒我")
	if !strings.Contains(a.Text, "每月 $5,000.00") || !strings.Contains(a.Text, "90%") {
		t.Errorf("告警 90%%:\n%s", a.Text)
	}
}
