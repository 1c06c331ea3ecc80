package archtest

// stillToCall is every use of a domain function or package variable by a
// skin that the code still has, as "file.go:Func → pkg.Symbol" (issue 34
// moves them behind core/session methods that return the document). It
// only shrinks: TestSkinCallsNoDomain fails on a use missing here and on
// an entry the code no longer has, so whoever moves a call removes its
// line too (then scripts/gen-architecture.sh).
var stillToCall = map[string][]string{
	"commands": {
		"serve.go:reachHub → core/discovery.TokenPath",
	},
	"server": {
		"discovery.go:Client.Stop → core/discovery.ProcessAlive",
		"discovery.go:Client.Stop → core/discovery.ReadAt",
		"discovery.go:Connect → core/discovery.Path",
		"discovery.go:Connect → core/discovery.ProcessAlive",
		"discovery.go:Connect → core/discovery.Read",
		"discovery.go:Connect → core/discovery.TokenPath",
		"discovery.go:OtherServers → core/discovery.ReadAt",
		"server.go:Open → core/discovery.Path",
		"server.go:Server.URL → core/discovery.BaseURL",
		"server.go:Server.checkRunning → core/discovery.Read",
		"server.go:Server.removeFiles → core/discovery.Path",
		"server.go:Server.removeFiles → core/discovery.TokenPath",
		"server.go:Server.writeFiles → core/discovery.BaseURL",
		"server.go:Server.writeFiles → core/discovery.Path",
		"server.go:Server.writeFiles → core/discovery.TokenPath",
		"server.go:listen → core/discovery.Addr",
	},
}
