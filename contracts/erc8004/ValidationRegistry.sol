// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IIdentityRegistryForValidation {
    function isAuthorizedOrOwner(address spender, uint256 agentId) external view returns (bool);
}

/// ERC-8004 Validation Registry (docs/erc8004.md): an agent's owner or operator asks a validator to
/// check some work (requestHash commits to it); the validator answers 0-100 (possibly several
/// times, for progressive validation) with an optional evidence URI, hash and tag.
contract ValidationRegistry {
    struct Status {
        address validatorAddress;
        uint256 agentId;
        uint8 response;
        bytes32 responseHash;
        string tag;
        uint256 lastUpdate;
        bool hasResponse;
    }

    event ValidationRequest(
        address indexed validatorAddress,
        uint256 indexed agentId,
        string requestURI,
        bytes32 indexed requestHash
    );
    event ValidationResponse(
        address indexed validatorAddress,
        uint256 indexed agentId,
        bytes32 indexed requestHash,
        uint8 response,
        string responseURI,
        bytes32 responseHash,
        string tag
    );

    address private immutable _identityRegistry;
    mapping(bytes32 => Status) private _status;
    mapping(uint256 => bytes32[]) private _agentValidations;
    mapping(address => bytes32[]) private _validatorRequests;

    constructor(address identityRegistry_) {
        _identityRegistry = identityRegistry_;
    }

    function getIdentityRegistry() external view returns (address) {
        return _identityRegistry;
    }

    function validationRequest(address validatorAddress, uint256 agentId, string calldata requestURI, bytes32 requestHash)
        external
    {
        require(validatorAddress != address(0), 'zero validator');
        require(IIdentityRegistryForValidation(_identityRegistry).isAuthorizedOrOwner(msg.sender, agentId), 'not authorized');
        require(_status[requestHash].validatorAddress == address(0), 'request exists');
        _status[requestHash] = Status(validatorAddress, agentId, 0, bytes32(0), '', block.timestamp, false);
        _agentValidations[agentId].push(requestHash);
        _validatorRequests[validatorAddress].push(requestHash);
        emit ValidationRequest(validatorAddress, agentId, requestURI, requestHash);
    }

    function validationResponse(
        bytes32 requestHash,
        uint8 response,
        string calldata responseURI,
        bytes32 responseHash,
        string calldata tag
    ) external {
        Status storage s = _status[requestHash];
        require(s.validatorAddress != address(0), 'unknown request');
        require(s.validatorAddress == msg.sender, 'not the validator');
        require(response <= 100, 'response > 100');
        s.response = response;
        s.responseHash = responseHash;
        s.tag = tag;
        s.lastUpdate = block.timestamp;
        s.hasResponse = true;
        emit ValidationResponse(msg.sender, s.agentId, requestHash, response, responseURI, responseHash, tag);
    }

    function getValidationStatus(bytes32 requestHash)
        external
        view
        returns (address validatorAddress, uint256 agentId, uint8 response, bytes32 responseHash, string memory tag, uint256 lastUpdate)
    {
        Status storage s = _status[requestHash];
        require(s.validatorAddress != address(0), 'unknown request');
        return (s.validatorAddress, s.agentId, s.response, s.responseHash, s.tag, s.lastUpdate);
    }

    /// Count and mean response of the answered requests for the agent, optionally only from the
    /// named validators and with the tag ("" matches any).
    function getSummary(uint256 agentId, address[] calldata validatorAddresses, string calldata tag)
        external
        view
        returns (uint64 count, uint8 avgResponse)
    {
        bytes32 wanted = keccak256(bytes(tag));
        uint256 total;
        bytes32[] storage hashes = _agentValidations[agentId];
        for (uint256 i = 0; i < hashes.length; i++) {
            Status storage s = _status[hashes[i]];
            if (!s.hasResponse) continue;
            if (bytes(tag).length > 0 && keccak256(bytes(s.tag)) != wanted) continue;
            if (validatorAddresses.length > 0) {
                bool listed = false;
                for (uint256 v = 0; v < validatorAddresses.length; v++) {
                    if (validatorAddresses[v] == s.validatorAddress) listed = true;
                }
                if (!listed) continue;
            }
            total += s.response;
            count++;
        }
        if (count > 0) avgResponse = uint8(total / count);
    }

    function getAgentValidations(uint256 agentId) external view returns (bytes32[] memory) {
        return _agentValidations[agentId];
    }

    function getValidatorRequests(address validatorAddress) external view returns (bytes32[] memory) {
        return _validatorRequests[validatorAddress];
    }
}
