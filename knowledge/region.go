package knowledge

import (
	"regexp"
	"strings"
)

// Geography of an offer, for "US only", "EU only", "国内" filters. Sources
// name regions their own way ("us-east-1", "centralus", "Germany, DE, EU",
// "DE - FRA2", "dallas-usa-1", "Ottawa, Ontario, Canada"); AreaOf reads
// them into a few areas. Most offers name no region: they are "" (not
// stated), never guessed — except a Chinese cloud's, which is in China.
const (
	AreaUS = "us" // United States
	AreaEU = "eu" // Europe (EU and its neighbours: the UK, Norway, …)
	AreaCN = "cn" // mainland China
	AreaSG = "sg" // Singapore
	AreaAP = "ap" // the rest of Asia-Pacific
	AreaCA = "ca" // Canada
	AreaOC = "oc" // Australia, New Zealand
	AreaXX = "xx" // elsewhere (Africa, South America, …)
)

// areaRules are tried in order on the region id and label, lower-cased;
// the first that matches names the area.
var areaRules = []struct {
	area string
	re   *regexp.Regexp
}{
	{AreaSG, regexp.MustCompile(`singapore|southeast1|ap-southeast-1\b|, sg\b`)},
	{AreaCA, regexp.MustCompile(`canada|^ca-|^ca - |montreal|toronto|^tor\d|ontario|british columbia|quebec`)},
	{AreaUS, regexp.MustCompile(`^us[-_]|united states|-usa-|\b(?:east|west|central|northcentral|southcentral|westcentral)us\d?\b|^(?:east|west|central|northcentral|southcentral)us|, us, na\b|^us - |east coast|west coast|\b(?:virginia|oregon|ohio|texas|dallas|iowa|carlsbad|california)\b`)},
	{AreaEU, regexp.MustCompile(`^eu[-_]|europe|^(?:de|fr|it|nl|no|se|fi|pl|es|gb|uk|ie|ch|at|be|cz|dk|ee|is|pt|ro|hu)[- ]|, eu\b|germany|france|finland|helsinki|poland|estonia|norway|sweden|italy|spain|netherlands|romania|iceland|belgium|hungary|ireland|united kingdom|london|frankfurt|paris|amsterdam|stockholm|\buk(?:south|west)\b|francecentral|germanywest|swedencentral|northeurope|westeurope`)},
	{AreaOC, regexp.MustCompile(`^au[-_ ]|australia|melbourne|sydney|new zealand|, oc\b`)},
	{AreaAP, regexp.MustCompile(`^ap[-_]|^asia|^in - |japan|tokyo|korea|seoul|india|mumbai|hong kong|taiwan|malaysia|, as\b|japaneast|koreacentral`)},
	{AreaXX, regexp.MustCompile(`^af-|^za-|^sa-|^me-|south africa|johannesburg|brazil|sao paulo|chile|israel|uae|dubai`)},
}

// AreaOf is where an offer is, "" when the source does not say. A platform
// in mainland China (Platform.Region "cn") is there whatever the offer says.
func AreaOf(o Offer, platformRegion string) string {
	if platformRegion == "cn" {
		return AreaCN
	}
	for _, s := range []string{o.Region, o.RegionLabel, o.Zone} {
		s = strings.ToLower(strings.TrimSpace(s))
		if s == "" || s == "default" || s == "unspecified" {
			continue
		}
		for _, r := range areaRules {
			if r.re.MatchString(s) {
				return r.area
			}
		}
	}
	return ""
}

// InArea reports whether an offer in area meets a filter for want: in it,
// or — for a filter outside China — not stated (kept, and said so). A
// filter for China keeps only Chinese clouds; Singapore is in Asia-Pacific.
func InArea(area, want string) (in, unknown bool) {
	switch {
	case area == want || want == AreaAP && area == AreaSG:
		return true, false
	case area == "" && want != AreaCN:
		return true, true
	}
	return false, false
}
