import type { Api } from '../../api.js';
import addEndpoint from './add-endpoint.js';
import appOverview from './app-overview.js';
import appStatistics from './app-statistics.js';
import appSummary from './app-summary.js';
import deleteVolumeInstance from './delete-volume-instance.js';
import deleteVolumeInstances from './delete-volume-instances.js';
import detachVolume from './detach-volume.js';
import getLimits from './get-limits.js';
import listNodeAddresses from './list-node-addresses.js';
import listNodes from './list-nodes.js';
import listRegions from './list-regions.js';
import optimalRegion from './optimal-region.js';
import recreatePod from './recreate-pod.js';
import updateVolume from './update-volume.js';
import addTemplate from './add-template.js';
import createApp from './create-app.js';
import deleteApp from './delete-app.js';
import deleteContainer from './delete-container.js';
import deleteEndpoint from './delete-endpoint.js';
import deployApp from './deploy-app.js';
import getApp from './get-app.js';
import getAutoscaling from './get-autoscaling.js';
import getContainer from './get-container.js';
import getRegionSettings from './get-region-settings.js';
import listApps from './list-apps.js';
import listEndpoints from './list-endpoints.js';
import listVolumes from './list-volumes.js';
import patchApp from './patch-app.js';
import patchContainer from './patch-container.js';
import replaceApp from './replace-app.js';
import restartApp from './restart-app.js';
import setAutoscaling from './set-autoscaling.js';
import setContainerEnv from './set-container-env.js';
import setRegionSettings from './set-region-settings.js';
import undeployApp from './undeploy-app.js';
import updateEndpoint from './update-endpoint.js';

/** Container-application operations; app.ts mounts them under /mc (and /). */
export default function containerAppRoutes(app: Api) {
  for (const register of [
    // Applications
    createApp,
    listApps,
    getApp,
    replaceApp,
    patchApp,
    deleteApp,
    deployApp,
    undeployApp,
    restartApp,
    recreatePod,
    appStatistics,
    appSummary,
    appOverview,
    // Containers
    addTemplate,
    getContainer,
    patchContainer,
    deleteContainer,
    setContainerEnv,
    // Endpoints
    listEndpoints,
    addEndpoint,
    updateEndpoint,
    deleteEndpoint,
    // Settings
    getRegionSettings,
    setRegionSettings,
    getAutoscaling,
    setAutoscaling,
    listVolumes,
    updateVolume,
    detachVolume,
    deleteVolumeInstances,
    deleteVolumeInstance,
    // The platform around the applications
    getLimits,
    listNodes,
    listNodeAddresses,
    listRegions,
    optimalRegion,
  ]) {
    register(app);
  }
}
