# profiles (installed to $(pkgdatadir)/profiles)
dist_profiles_DATA += \
	profiles/rk3588-npu.profile \
	profiles/rk3588-bigcores.profile \
	profiles/rt-latency.profile \
	profiles/x86-rt.profile
