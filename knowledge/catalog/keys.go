package catalog

// Redis key layout (prefix defaults to "gpubot:"):
//
//	{prefix}{catalog}:version          STRING  INCR'd on every stored change; replicas GET it per request
//	{prefix}{catalog}:sources          SET     names of the sources that have a snapshot or status
//	{prefix}{catalog}:snap:<source>    STRING  JSON snapshot of one source (prices as decimal strings)
//	{prefix}{catalog}:status:<source>  HASH    last_attempt, last_success, error, error_at, stale_since,
//	                                           offers, rejected, ref, snap_hash, skipped, unknown, problems
//	{prefix}{catalog}:baseline:<name>  STRING  JSON snapshot of a merged view (e.g. what the last daily post saw), with a TTL
//	{prefix}catalog:histlast:<source>  HASH    offer key -> "<unix ms>|<fingerprint>" of its last history point
//	{prefix}catalog:hist:<offer key>   ZSET    score unix ms; member "<ms>|low|high|median|card_hourly|currency|availability"
//	{prefix}catalog:cheapest:<gpu>:<currency>:<class>
//	                                   ZSET    score unix ms; member "<ms>|card_hourly|offer key|platform"
//
// The {catalog} hash tag keeps the snapshot keys in one Redis Cluster slot, so
// a source's snapshot, its status and the version change in one MULTI/EXEC.
// History keys carry no tag and spread across the cluster. Every history
// and cheapest-series key is trimmed to the retention window on write and
// expires one retention after its last write.
type keys struct{ prefix string }

func (k keys) version() string             { return k.prefix + "{catalog}:version" }
func (k keys) sources() string             { return k.prefix + "{catalog}:sources" }
func (k keys) snap(source string) string   { return k.prefix + "{catalog}:snap:" + source }
func (k keys) status(source string) string { return k.prefix + "{catalog}:status:" + source }
func (k keys) baseline(name string) string { return k.prefix + "{catalog}:baseline:" + name }
func (k keys) histLast(source string) string {
	return k.prefix + "catalog:histlast:" + source
}
func (k keys) hist(offerKey string) string { return k.prefix + "catalog:hist:" + offerKey }
func (k keys) cheapest(gpu, currency, class string) string {
	return k.prefix + "catalog:cheapest:" + gpu + ":" + currency + ":" + class
}
