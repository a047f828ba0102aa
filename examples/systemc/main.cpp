// A SystemC program that instantiates the whole gmsim memory system as a
// module and runs a built-in workload on its cores; it writes the run's
// statistics as gmsim run would (the test compares them).
//   gmsim_sc_consumer CONFIG.ini WORKLOAD STATS.json   (size tiny)
#include <cstdio>
#include <stdexcept>

#include <systemc/gm_system_sc.h>

extern "C" {
#include <config/config.h>
#include <stats/report.h>
#include <workload/workload.h>
}

int sc_main(int argc, char** argv)
{
    if (argc != 4) {
        std::fprintf(stderr, "usage: gmsim_sc_consumer CONFIG.ini WORKLOAD STATS.json\n");
        return 2;
    }
    gm_config cfg;
    gm_error err{};
    gm_config_defaults(&cfg);
    if (gm_config_load_file(&cfg, argv[1], &err) != 0 || gm_config_validate(&cfg, &err) != 0) {
        std::fprintf(stderr, "gmsim_sc_consumer: %s\n", err.msg);
        return 1;
    }
    gm_workload wl;
    if (gm_workload_build(&wl, argv[2], GM_SIZE_TINY, cfg.sim.seed, &err) != 0) {
        std::fprintf(stderr, "gmsim_sc_consumer: %s\n", err.msg);
        return 1;
    }
    int rc = 0;
    {
        gm_sc::gm_system_sc gpu("gpu", cfg);
        gpu.set_workload(&wl);
        sc_core::sc_start();
        if (!gpu.finished() || gpu.result() != 0) {
            std::fprintf(stderr, "gmsim_sc_consumer: run failed: %s\n", gpu.error().c_str());
            rc = 1;
        } else {
            gm_run_info info{};
            info.workload = argv[2];
            info.size = "tiny";
            FILE* f = std::fopen(argv[3], "w");
            if (!f || gm_stats_write_json(gpu.system(), &info, f, &err) != 0) {
                std::fprintf(stderr, "gmsim_sc_consumer: %s: %s\n", argv[3], f ? err.msg : "cannot open");
                rc = 1;
            }
            if (f) std::fclose(f);
            std::printf("gmsim_sc_consumer: %s done at core cycle %llu (SystemC time %s)\n",
                        argv[2], static_cast<unsigned long long>(gpu.core_cycle()),
                        sc_core::sc_time_stamp().to_string().c_str());
        }
    }
    gm_workload_free(&wl);
    return rc;
}
