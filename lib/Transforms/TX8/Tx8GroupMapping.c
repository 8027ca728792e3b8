/* tx8-group-mapping: the seed's GroupMappingPass (simpleGroupMapping).
 * Every tx8be.group — in a graph body or a subgraph a tx8be.call runs —
 * runs on the module's tile mesh: `dev_region = #tx8be.region_attr<
 * tile_dx = X, tile_dy = Y>` from the module attributes tx8be.tile_dx and
 * tx8be.tile_dy, each defaulting to the target's mesh (4 x 4). A mesh
 * larger than the target's tiles along either axis is an error.
 * docs/passes/tx8-group-mapping.md */
#include "Tx8Options.h"
#include "Tx8Graph.h"
#include "npuc/IR.h"
#include "npuc/Pass.h"
#include "npuc/Tx8Ir.h"

#include <stddef.h>
#include <stdio.h>

#define MAPPING_OPTIONS(X, T) TX8_OPTION_TARGET_CONFIG(X, T)
NPUC_PASS_OPTIONS(mapping_options, MAPPING_OPTIONS);

NPUC_PASS_DEFINE(
    npuc_pass_tx8_group_mapping, "tx8-group-mapping",
    "Map every tx8be.group onto the module's tile mesh (dev_region)",
    "builtin.module", group_mapping, NPUC_PASS_OPTIONS_OF(mapping_options));

static bool group_mapping(MlirOperation module, const npuc_pass_options *opts,
                          const npuc_pass_context *ctx) {
  (void)ctx;
  npuc_tx8_target target;
  int32_t dx, dy;
  if (!tx8_pass_target_mesh(
          module, npuc_pass_tx8_group_mapping.name,
          NPUC_PASS_OPTS(mapping_options, opts)->target_config, &target, &dx,
          &dy))
    return false;
  if (dx > target.tiles_x || dy > target.tiles_y) {
    npuc_pass_error(module,
                    "the tile mesh %dx%d (tx8be.tile_dx x tx8be.tile_dy) "
                    "exceeds the target's %dx%d tiles",
                    dx, dy, target.tiles_x, target.tiles_y);
    return false;
  }
  npuc_tx8_region_attr region = {dx, dy};
  char text[128];
  npuc_tx8_print_region_attr(&region, text, sizeof text);
  MlirAttribute attr = mlirAttributeParseGet(
      mlirOperationGetContext(module), mlirStringRefCreateFromCString(text));
  tx8_op_list groups;
  tx8_collect_ops(module, "tx8be.group", &groups);
  for (size_t i = 0; i < groups.count; i++)
    mlirOperationSetAttributeByName(
        groups.ops[i], mlirStringRefCreateFromCString("dev_region"), attr);
  tx8_op_list_free(&groups);
  return true;
}
