#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Emulated host shapes: run a live test as if this machine had another
# cpufreq / cpuidle layout, so one build machine exercises them all.
#
#   tests/hostshape.sh list                 the shape names
#   tests/hostshape.sh gen SHAPE DIR [NCPU] write DIR/cpu (a tree for
#                                           /sys/devices/system/cpu)
#   tests/hostshape.sh run SHAPE CMD...     run CMD in a private mount
#                                           namespace with that tree
#                                           bind-mounted over
#                                           /sys/devices/system/cpu
#
# The tree has as many CPUs as this machine (NCPU defaults to the online
# count), so /proc/stat, perf events, affinities and the probe still agree
# with it. Shapes:
#   host      nothing changed (the machine as it is)
#   none      no cpuidle states (driver none), no cpufreq
#   haltpoll  KVM guest: cpuidle haltpoll (POLL + "haltpoll idle"), governor
#             haltpoll, no cpufreq
#   intel     intel_idle (POLL C1 C1E C6) + intel_pstate with HWP, powersave
#   arm       big.LITTLE: psci_idle (WFI, cpu-sleep 220 us), one cpufreq-dt
#             policy per cluster (schedutil), capacities 512 / 1024
# TT_SHAPE_ISOLATED=LIST writes LIST into the tree's isolated file (as
# isolcpus= would). Only the mount namespace of CMD sees the tree: the machine's /sys is
# never written (writes a test makes land in the tree, in a temporary
# directory removed afterwards). `run` needs root (unshare -m); where it
# cannot enter a namespace it exits 77 (the automake skip status).
set -eu

SHAPES="host none haltpoll intel arm"

w() { # w FILE CONTENT: one sysfs attribute (with the kernel's newline)
	mkdir -p "$(dirname "$1")"
	printf '%s\n' "$2" >"$1"
}

list_range() { # 0-(n-1), as the kernel prints a CPU list
	if [ "$1" -le 1 ]; then echo 0; else echo "0-$(($1 - 1))"; fi
}

gen_cpu_common() { # DIR NCPU
	d=$1 n=$2
	w "$d/online" "$(list_range "$n")"
	w "$d/possible" "$(list_range "$n")"
	w "$d/present" "$(list_range "$n")"
	w "$d/offline" ""
	w "$d/isolated" "${TT_SHAPE_ISOLATED:-}"
	w "$d/nohz_full" "(null)"
	w "$d/kernel_max" 8191
	c=0
	while [ "$c" -lt "$n" ]; do
		mkdir -p "$d/cpu$c/topology" "$d/cpu$c/power"
		[ "$c" -gt 0 ] && w "$d/cpu$c/online" 1
		w "$d/cpu$c/topology/core_id" "$c"
		w "$d/cpu$c/topology/physical_package_id" 0
		w "$d/cpu$c/topology/die_id" 0
		w "$d/cpu$c/topology/core_cpus_list" "$c"
		w "$d/cpu$c/topology/thread_siblings_list" "$c"
		w "$d/cpu$c/power/pm_qos_resume_latency_us" 0
		c=$((c + 1))
	done
}

idle_state() { # DIR NAME DESC LATENCY RESIDENCY USAGE TIME_US
	w "$1/name" "$2"
	w "$1/desc" "$3"
	w "$1/latency" "$4"
	w "$1/residency" "$5"
	w "$1/usage" "$6"
	w "$1/time" "$7"
	w "$1/disable" 0
	w "$1/default_status" enabled
	w "$1/above" 0
	w "$1/below" 0
	w "$1/rejected" 0
	w "$1/power" 4294967295
}

cpuidle_top() { # DIR DRIVER GOVERNOR AVAILABLE
	w "$1/cpuidle/current_driver" "$2"
	w "$1/cpuidle/current_governor" "$3"
	w "$1/cpuidle/current_governor_ro" "$3"
	w "$1/cpuidle/available_governors" "$4"
}

gen() { # SHAPE DIR NCPU
	shape=$1 d=$2/cpu n=$3
	rm -rf "$d"
	mkdir -p "$d"
	gen_cpu_common "$d" "$n"
	case $shape in
	none)
		cpuidle_top "$d" none menu "ladder menu teo"
		;;
	haltpoll)
		cpuidle_top "$d" haltpoll haltpoll "ladder menu teo haltpoll"
		c=0
		while [ "$c" -lt "$n" ]; do
			idle_state "$d/cpu$c/cpuidle/state0" POLL "CPUIDLE CORE POLL IDLE" 0 0 \
				$((1000 + c)) 52000
			idle_state "$d/cpu$c/cpuidle/state1" "haltpoll idle" "haltpoll idle" 1 1 \
				$((90000 + c)) 91000000000
			c=$((c + 1))
		done
		;;
	intel)
		cpuidle_top "$d" intel_idle menu "ladder menu teo"
		w "$d/intel_pstate/status" active
		w "$d/intel_pstate/hwp_dynamic_boost" 0
		w "$d/intel_pstate/max_perf_pct" 100
		w "$d/intel_pstate/min_perf_pct" 8
		w "$d/intel_pstate/no_turbo" 0
		w "$d/intel_pstate/num_pstates" 47
		w "$d/intel_pstate/turbo_pct" 31
		c=0
		while [ "$c" -lt "$n" ]; do
			s=$d/cpu$c/cpuidle
			idle_state "$s/state0" POLL "CPUIDLE CORE POLL IDLE" 0 0 2000 90000
			idle_state "$s/state1" C1 "MWAIT 0x00" 1 1 40000 2100000
			idle_state "$s/state2" C1E "MWAIT 0x01" 4 10 30000 5000000
			idle_state "$s/state3" C6 "MWAIT 0x20" 170 600 60000 80000000
			p=$d/cpufreq/policy$c
			w "$p/affected_cpus" "$c"
			w "$p/related_cpus" "$c"
			w "$p/base_frequency" 2200000
			w "$p/cpuinfo_max_freq" 5000000
			w "$p/cpuinfo_min_freq" 400000
			w "$p/cpuinfo_transition_latency" 0
			w "$p/energy_performance_available_preferences" \
				"default performance balance_performance balance_power power "
			w "$p/energy_performance_preference" balance_performance
			w "$p/scaling_available_governors" "performance powersave"
			w "$p/scaling_cur_freq" $((800000 + c * 100000))
			w "$p/scaling_driver" intel_pstate
			w "$p/scaling_governor" powersave
			w "$p/scaling_max_freq" 5000000
			w "$p/scaling_min_freq" 400000
			w "$p/scaling_setspeed" "<unsupported>"
			ln -s "../cpufreq/policy$c" "$d/cpu$c/cpufreq"
			c=$((c + 1))
		done
		;;
	arm)
		cpuidle_top "$d" psci_idle menu "ladder menu teo"
		half=$(((n + 1) / 2))
		c=0
		while [ "$c" -lt "$n" ]; do
			s=$d/cpu$c/cpuidle
			idle_state "$s/state0" WFI "ARM WFI" 1 1 $((5000 + c)) 1500000
			idle_state "$s/state1" cpu-sleep "cpu-sleep" 220 1000 $((3000 + c)) 40000000
			if [ "$c" -lt "$half" ]; then
				pol=0 lo=0 hi=$((half - 1)) cap=512 max=1800000
			else
				pol=$half lo=$half hi=$((n - 1)) cap=1024 max=2256000
			fi
			w "$d/cpu$c/cpu_capacity" "$cap"
			w "$d/cpu$c/topology/cluster_id" "$pol"
			if [ "$lo" = "$hi" ]; then cl=$lo; else cl="$lo-$hi"; fi
			w "$d/cpu$c/topology/cluster_cpus_list" "$cl"
			ln -s "../cpufreq/policy$pol" "$d/cpu$c/cpufreq"
			if [ "$c" = "$lo" ]; then
				p=$d/cpufreq/policy$pol
				w "$p/affected_cpus" "$(seq -s ' ' "$lo" "$hi")"
				w "$p/related_cpus" "$(seq -s ' ' "$lo" "$hi")"
				w "$p/cpuinfo_max_freq" "$max"
				w "$p/cpuinfo_min_freq" 408000
				w "$p/cpuinfo_cur_freq" 408000
				w "$p/cpuinfo_transition_latency" 40000
				w "$p/scaling_available_frequencies" \
					"408000 816000 1200000 1608000 $max "
				w "$p/scaling_available_governors" \
					"conservative ondemand userspace powersave performance schedutil "
				w "$p/scaling_cur_freq" 408000
				w "$p/scaling_driver" cpufreq-dt
				w "$p/scaling_governor" schedutil
				w "$p/scaling_max_freq" "$max"
				w "$p/scaling_min_freq" 408000
				w "$p/scaling_setspeed" "<unsupported>"
				w "$p/schedutil/rate_limit_us" 1000
				w "$p/stats/total_trans" 1200
				printf '408000 50000\n816000 2000\n1200000 1000\n1608000 500\n%s 300\n' \
					"$max" >"$p/stats/time_in_state"
			fi
			c=$((c + 1))
		done
		;;
	*)
		echo "hostshape: unknown shape '$shape' (one of: $SHAPES)" >&2
		return 2
		;;
	esac
}

ncpu() {
	n=$(getconf _NPROCESSORS_ONLN 2>/dev/null || nproc)
	echo "${n:-1}"
}

cmd=${1:-}
case $cmd in
list)
	echo "$SHAPES"
	;;
gen)
	[ $# -ge 3 ] || { echo "usage: $0 gen SHAPE DIR [NCPU]" >&2; exit 2; }
	gen "$2" "$3" "${4:-$(ncpu)}"
	;;
run)
	[ $# -ge 3 ] || { echo "usage: $0 run SHAPE CMD..." >&2; exit 2; }
	shape=$2
	shift 2
	if [ "$shape" = host ]; then
		exec "$@"
	fi
	case " $SHAPES " in *" $shape "*) ;; *)
		echo "hostshape: unknown shape '$shape' (one of: $SHAPES)" >&2
		exit 2
		;;
	esac
	if [ "$(id -u)" -ne 0 ] || ! command -v unshare >/dev/null 2>&1; then
		echo "hostshape: shape $shape needs root and unshare (mount namespace)" >&2
		exit 77
	fi
	tree=$(mktemp -d "${TMPDIR:-/tmp}/tunetop-shape-$shape.XXXXXX")
	gen "$shape" "$tree" "$(ncpu)"
	# The tree goes once the command is done; the mount dies with the
	# namespace.
	set +e
	TT_HOST_SHAPE_ACTIVE=$shape unshare -m --propagation private sh -c '
		mount --bind "$1/cpu" /sys/devices/system/cpu || exit 77
		shift
		exec "$@"' hostshape "$tree" "$@"
	rc=$?
	rm -rf "$tree"
	exit $rc
	;;
*)
	echo "usage: $0 list | gen SHAPE DIR [NCPU] | run SHAPE CMD..." >&2
	exit 2
	;;
esac
