/* The topology is read off a built system (its registered networks and
 * their routers) rather than recomputed from the design's keys, so that
 * what synthesis area sums (scripts/noc-area) and what a co-simulation
 * pattern names are exactly the routers a run ticks. */
#include "cli/topology_cmd.h"

#include <cjson/cJSON.h>
#include <stdlib.h>
#include <string.h>

#include "system/system.h"

#define MAX_SIZES 8

typedef struct net_group {
    char name[16];               /* "noc1_req" */
    const char *network;
    bool request;
    uint32_t mhz;
    uint32_t nsizes;
    uint32_t in[MAX_SIZES], out[MAX_SIZES], count[MAX_SIZES];
    cJSON *instances;
} net_group;

#define MAX_GROUPS 16

static net_group *find_group(net_group *g, uint32_t *ng, const gm_net_ref *r, uint32_t mhz)
{
    for (uint32_t i = 0; i < *ng; i++)
        if (strcmp(g[i].network, r->network) == 0 && g[i].request == r->request)
            return &g[i];
    if (*ng == MAX_GROUPS)
        return NULL;
    net_group *n = &g[(*ng)++];
    memset(n, 0, sizeof *n);
    snprintf(n->name, sizeof n->name, "%s_%s", r->network, r->request ? "req" : "rep");
    n->network = r->network;
    n->request = r->request;
    n->mhz = mhz;
    n->instances = cJSON_CreateArray();
    return n;
}

static int add_router(net_group *n, uint32_t in, uint32_t out, gm_error *err)
{
    for (uint32_t i = 0; i < n->nsizes; i++) {
        if (n->in[i] == in && n->out[i] == out) {
            n->count[i]++;
            return 0;
        }
    }
    if (n->nsizes == MAX_SIZES)
        return gm_fail(err, "topology: network %s has more than %d router sizes", n->name,
                       MAX_SIZES);
    n->in[n->nsizes] = in;
    n->out[n->nsizes] = out;
    n->count[n->nsizes++] = 1;
    return 0;
}

static cJSON *group_json(const net_group *n, const gm_noc_cfg *noc)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", n->name);
    cJSON_AddNumberToObject(o, "clock_mhz", n->mhz);
    cJSON *rs = cJSON_AddArrayToObject(o, "routers");
    for (uint32_t i = 0; i < n->nsizes; i++) {
        cJSON *r = cJSON_CreateObject();
        cJSON_AddNumberToObject(r, "inputs", n->in[i]);
        cJSON_AddNumberToObject(r, "outputs", n->out[i]);
        cJSON_AddNumberToObject(r, "count", n->count[i]);
        cJSON_AddNumberToObject(r, "vcs", noc->vcs);
        cJSON_AddNumberToObject(r, "vc_depth", noc->vc_depth);
        cJSON_AddNumberToObject(r, "flit_bytes", noc->flit_bytes);
        cJSON_AddItemToArray(rs, r);
    }
    cJSON_AddItemToObject(o, "instances", cJSON_Duplicate(n->instances, 1));
    return o;
}

static void print_table(FILE *out, const char *design, const net_group *g, uint32_t ng)
{
    fprintf(out, "design %s\n%-10s %9s %8s %6s  %s\n", design, "network", "clock MHz", "routers",
            "count", "instances");
    for (uint32_t i = 0; i < ng; i++) {
        for (uint32_t k = 0; k < g[i].nsizes; k++) {
            char size[24];
            snprintf(size, sizeof size, "%ux%u", g[i].in[k], g[i].out[k]);
            const cJSON *first = cJSON_GetArrayItem(g[i].instances, 0);
            int n = cJSON_GetArraySize(g[i].instances);
            fprintf(out, "%-10s %9u %8s %6u  %s%s\n", g[i].name, g[i].mhz, size, g[i].count[k],
                    first ? first->valuestring : "", n > 1 ? " ..." : "");
        }
    }
}

int gm_topology_print(const gm_config *cfg, const char *config_name, bool table, FILE *out,
                      gm_error *err)
{
    gm_system *s = calloc(1, sizeof *s);
    if (!s)
        return gm_fail(err, "out of memory");
    if (gm_system_init(s, cfg, err) != 0) {
        free(s);
        return -1;
    }
    net_group g[MAX_GROUPS];
    uint32_t ng = 0;
    int rc = 0;
    for (uint32_t i = 0; i < gm_system_net_count(s) && rc == 0; i++) {
        gm_net_ref r = gm_system_net_at(s, i);
        net_group *n = find_group(g, &ng, &r, s->clock.d[r.domain].mhz);
        if (!n) {
            rc = gm_fail(err, "topology: more than %d networks", MAX_GROUPS);
            break;
        }
        for (uint32_t k = 0; k < gm_net_router_count(r.net) && rc == 0; k++) {
            uint32_t in, out;
            gm_net_router_ports(r.net, k, &in, &out);
            cJSON_AddItemToArray(n->instances,
                                 cJSON_CreateString(gm_net_router_name(r.net, k)));
            rc = add_router(n, in, out, err);
        }
    }
    char design[64];
    s->design->point_name(s->design_state, design, sizeof design);
    if (rc == 0 && table) {
        print_table(out, design, g, ng);
    } else if (rc == 0) {
        cJSON *root = cJSON_CreateObject();
        cJSON_AddStringToObject(root, "design", design);
        cJSON_AddStringToObject(root, "config", config_name);
        cJSON_AddNumberToObject(root, "cores", s->ncores);
        cJSON_AddNumberToObject(root, "l2_slices", s->nslices);
        cJSON *nets = cJSON_AddArrayToObject(root, "networks");
        for (uint32_t i = 0; i < ng; i++)
            cJSON_AddItemToArray(nets, group_json(&g[i], &cfg->noc));
        char *text = cJSON_Print(root);
        if (text)
            fprintf(out, "%s\n", text);
        else
            rc = gm_fail(err, "out of memory");
        free(text);
        cJSON_Delete(root);
    }
    for (uint32_t i = 0; i < ng; i++)
        cJSON_Delete(g[i].instances);
    gm_system_free(s);
    free(s);
    return rc;
}
