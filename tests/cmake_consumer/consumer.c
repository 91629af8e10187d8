/* Links libtotex through the installed CMake package: parse a network, bound it. */
#include <stdio.h>
#include <totex.h>

int main(void)
{
    totex_error err;
    totex_network *net = totex_network_parse("torus:4x4x4", &err);
    if (!net) {
        fprintf(stderr, "consumer: %s\n", err.msg);
        return 1;
    }
    printf("consumer: %u nodes, diameter %llu\n", totex_network_nodes(net),
           (unsigned long long)totex_network_diameter(net));
    totex_network_free(net);
    return 0;
}
